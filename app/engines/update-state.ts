import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { z } from 'zod'
import { writeFileAtomic } from '../lib/atomic-write'

/**
 * <home>/engine-updates.json: when releases were last checked (the daily
 * check reads it; the setting `engineUpdateCheck` turns that check off), what
 * the newest release was, and for each profile an update moved, the binary it
 * had before (for rollback).
 */
export const ENGINE_UPDATES_FILE = 'engine-updates.json'

const StateSchema = z.object({
  version: z.literal(1),
  lastCheckAt: z.string().nullable(),
  latestTag: z.string().nullable(),
  latestPublishedAt: z.string().nullable(),
  rollbacks: z.record(z.string(), z.object({ previousBinary: z.string(), updatedBinary: z.string(), at: z.string() })),
})
export type EngineUpdateState = z.infer<typeof StateSchema>

const EMPTY: EngineUpdateState = { version: 1, lastCheckAt: null, latestTag: null, latestPublishedAt: null, rollbacks: {} }

export async function readUpdateState(home: string): Promise<EngineUpdateState> {
  try {
    const parsed = StateSchema.safeParse(JSON.parse(await readFile(join(home, ENGINE_UPDATES_FILE), 'utf8')))
    if (parsed.success) return parsed.data
  } catch {
    // missing or unreadable: nothing checked yet, nothing to roll back
  }
  return structuredClone(EMPTY)
}

/** Read, change, write atomically (one process writes it at a time: the CLI command or the app). */
export async function changeUpdateState(home: string, change: (s: EngineUpdateState) => void): Promise<EngineUpdateState> {
  const state = await readUpdateState(home)
  change(state)
  await writeFileAtomic(join(home, ENGINE_UPDATES_FILE), `${JSON.stringify(state, null, 2)}\n`)
  return state
}
