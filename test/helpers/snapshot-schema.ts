import { z } from 'zod'
import { SERVER_STATE_KINDS } from '../../app/contract/server-state'

/** The Snapshot contract as a runtime schema, to validate what the CLI prints. */
const exitInfo = z.object({
  code: z.number().int().nullable(),
  signal: z.string().nullable(),
  reason: z.string().nullable(),
  hint: z.string().nullable(),
  kind: z.string().nullable(),
  lastLines: z.array(z.string()),
})

export const snapshotSchema = z.object({
  time: z.number().int().positive(),
  server: z.object({
    state: z.enum(SERVER_STATE_KINDS as [string, ...string[]]),
    profileId: z.string().nullable(),
    pid: z.number().int().positive().nullable(),
    host: z.string().nullable(),
    port: z.number().int().min(1).max(65535).nullable(),
    exe: z.string().nullable(),
    readySince: z.number().nullable(),
    restartAt: z.number().nullable(),
    lastExit: exitInfo.nullable(),
    restarts: z.number().int().min(0),
    sleepIdleSeconds: z.number().int().positive().nullable().optional(),
    download: z
      .object({
        repo: z.string(),
        file: z.string(),
        bytes: z.number().min(0),
        total: z.number().min(0).nullable(),
        rateBps: z.number().min(0),
      })
      .strict()
      .nullable()
      .optional(),
  }),
  generation: z.unknown(),
  gpu: z.unknown(),
  cpu: z.unknown(),
  warnings: z.array(z.object({ id: z.string(), level: z.enum(['info', 'warn', 'error']), message: z.string(), fix: z.unknown() })),
  pinned: z
    .array(
      z
        .object({
          profileId: z.string(),
          name: z.string(),
          state: z.enum(SERVER_STATE_KINDS as [string, ...string[]]),
          port: z.number().int().min(1).max(65535).nullable(),
          pid: z.number().int().positive().nullable(),
          lastExit: z.string().nullable(),
          restarts: z.number().int().min(0),
          generation: z
            .object({ active: z.boolean(), tokensPerSecond: z.number().min(0).nullable(), last: z.unknown() })
            .strict()
            .nullable(),
        })
        .strict(),
    )
    .optional(),
})
