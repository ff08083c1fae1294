import { z } from 'zod'

/** The Snapshot contract as a runtime schema, to validate what the CLI prints. */
const problemSchema = z
  .object({ kind: z.string(), sentence: z.string(), details: z.string().optional(), fix: z.unknown().optional() })
  .strict()

const exitInfo = z.object({
  code: z.number().int().nullable(),
  signal: z.string().nullable(),
  reason: z.string().nullable(),
  hint: z.string().nullable(),
  kind: z.string().nullable(),
  problem: problemSchema.nullable(),
})

const common = {
  profileId: z.string().nullable(),
  exe: z.string().nullable(),
  lastExit: exitInfo.nullable(),
  restarts: z.number().int().min(0),
}
const noProcess = { pid: z.null(), host: z.null(), port: z.null() }
const running = { pid: z.number().int().positive(), host: z.string(), port: z.number().int().min(1).max(65535) }
const serving = { ...common, ...running, readySince: z.number(), sleepIdleSeconds: z.number().int().positive().nullable() }
const progress = z
  .object({ stage: z.string(), stages: z.array(z.string()).min(1), value: z.number().min(0).max(1).nullable() })
  .strict()
  .nullable()
const download = z
  .object({ repo: z.string(), file: z.string(), bytes: z.number().min(0), total: z.number().min(0).nullable(), rateBps: z.number().min(0) })
  .strict()

/** ServerStatus, one strict record per state: a field of another state is an error. */
export const serverStatusSchema = z.union([
  z.object({ state: z.literal('stopped'), ...common, ...noProcess }).strict(),
  z.object({ state: z.literal('starting'), ...common, ...noProcess }).strict(),
  z.object({ state: z.literal('starting'), ...common, ...running }).strict(),
  z.object({ state: z.literal('downloading'), ...common, ...running, download }).strict(),
  z.object({ state: z.literal('loading'), ...common, ...running, progress: progress.optional() }).strict(),
  z.object({ state: z.literal('ready'), ...serving }).strict(),
  z.object({ state: z.literal('sleeping'), ...serving, waking: progress.optional() }).strict(),
  z.object({ state: z.literal('stopping'), ...common, ...running }).strict(),
  z.object({ state: z.literal('backoff'), ...common, ...noProcess, lastExit: exitInfo, restartAt: z.number() }).strict(),
  z.object({ state: z.literal('crashloop'), ...common, ...noProcess, lastExit: exitInfo }).strict(),
  z.object({ state: z.literal('errored'), ...common, ...noProcess, lastExit: exitInfo }).strict(),
])

const pinnedCommon = {
  profileId: z.string(),
  name: z.string(),
  restarts: z.number().int().min(0),
  generation: z
    .object({ active: z.boolean(), tokensPerSecond: z.number().min(0).nullable(), last: z.unknown() })
    .strict()
    .nullable(),
}
const pinnedNoProcess = { pid: z.null(), port: z.null() }
const pinnedRunning = { pid: z.number().int().positive(), port: z.number().int().min(1).max(65535) }
const withProcess = ['downloading', 'loading', 'ready', 'sleeping', 'stopping'] as const
const failed = ['backoff', 'crashloop', 'errored'] as const

/** PinnedServerView, one strict record per state like ServerStatus: a pid and port only while a process runs. */
const pinnedServerSchema = z.union([
  z.object({ state: z.literal('stopped'), ...pinnedCommon, ...pinnedNoProcess, lastExit: problemSchema.nullable() }).strict(),
  z.object({ state: z.literal('starting'), ...pinnedCommon, ...pinnedNoProcess, lastExit: problemSchema.nullable() }).strict(),
  z.object({ state: z.literal('starting'), ...pinnedCommon, ...pinnedRunning, lastExit: problemSchema.nullable() }).strict(),
  z.object({ state: z.enum(withProcess), ...pinnedCommon, ...pinnedRunning, lastExit: problemSchema.nullable() }).strict(),
  z.object({ state: z.enum(failed), ...pinnedCommon, ...pinnedNoProcess, lastExit: problemSchema }).strict(),
])

export const snapshotSchema = z.object({
  time: z.number().int().positive(),
  server: serverStatusSchema,
  generation: z.unknown(),
  gpu: z.unknown(),
  cpu: z.unknown(),
  warnings: z.array(
    z.object({
      id: z.string(),
      level: z.enum(['info', 'warn', 'error']),
      headline: z.string().min(1),
      reason: z.string(),
      fix: z.unknown(),
    }),
  ),
  pinned: z.array(pinnedServerSchema).optional(),
  power: z
    .object({
      source: z.enum(['ac', 'battery', 'unknown']),
      batteryPercent: z.number().min(0).max(100).nullable(),
      charging: z.boolean().nullable(),
      saver: z.boolean().nullable(),
    })
    .strict()
    .nullable()
    .optional(),
  powerNotice: z
    .object({ sentence: z.string().min(1), kind: z.enum(['power', 'resume', 'game']), at: z.number() })
    .strict()
    .nullable()
    .optional(),
})
