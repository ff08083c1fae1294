import { resolve } from 'node:path'
import { JsonStore, type JsonStoreOptions } from './json-store'

const stores = new Map<string, JsonStore<unknown>>()

/** Windows paths differ in case only for the eye: one file, one key. */
const keyOf = (path: string): string => (process.platform === 'win32' ? resolve(path).toLowerCase() : resolve(path))

/**
 * The one JsonStore of a file in this process (created on first use): every caller shares its
 * write queue and its value. Callers of one file pass the same options; the first ones count.
 */
export function openJsonStore<T>(options: JsonStoreOptions<T>): JsonStore<T> {
  const key = keyOf(options.path)
  let store = stores.get(key)
  if (!store) {
    store = new JsonStore({ ...options, path: resolve(options.path) }) as JsonStore<unknown>
    stores.set(key, store)
  }
  return store as JsonStore<T>
}
