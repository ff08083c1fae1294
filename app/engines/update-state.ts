import { join } from 'node:path'
import { z } from 'zod'
import { versionedCodec } from '../lib/json-store/json-codec'
import type { JsonStore } from '../lib/json-store/json-store'
import { openJsonStore } from '../lib/json-store/registry'

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

const updateStateCodec = versionedCodec({ schema: StateSchema, version: 1 })

/**
 * The one store of this home's engine-updates.json in this process. A damaged file is set aside
 * (`.corrupt-<time>`, the store's notices say so) and the state starts empty: the next daily check
 * asks again, and only the rollbacks it held are lost (their binaries stay installed).
 */
export function updateStateStore(home: string): JsonStore<EngineUpdateState> {
  return openJsonStore<EngineUpdateState>({
    path: join(home, ENGINE_UPDATES_FILE),
    label: 'engine update state',
    codec: updateStateCodec,
    defaults: () => structuredClone(EMPTY),
  })
}

export async function readUpdateState(home: string): Promise<EngineUpdateState> {
  return structuredClone(await updateStateStore(home).load())
}

/** Read, change, write atomically under the file's lock (the CLI and the app may both write it). */
export function changeUpdateState(home: string, change: (s: EngineUpdateState) => void): Promise<EngineUpdateState> {
  return updateStateStore(home).update((state) => {
    change(state)
    return state
  })
}
