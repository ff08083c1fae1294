import { z } from 'zod'
import { versionedCodec } from '../../../app/lib/json-store/json-codec'
import type { JsonStoreOptions } from '../../../app/lib/json-store/json-store'

const ListSchema = z.object({ version: z.literal(2), items: z.array(z.string()) }).strict()
export type ListFile = z.infer<typeof ListSchema>

/** A small store for tests: a list of strings, version 2 (version 1 kept them under "names"). */
export function listStore(path: string): JsonStoreOptions<ListFile> {
  return {
    path,
    label: 'list file',
    codec: versionedCodec({ schema: ListSchema, version: 2, migrations: { 1: ({ names, ...rest }) => ({ ...rest, items: names }) } }),
    defaults: () => ({ version: 2, items: [] }),
    debounceMs: 50,
  }
}
