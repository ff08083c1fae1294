import type { z } from 'zod'

/** What a codec makes of a file's JSON. */
export type Decoded<T> =
  /** Usable; `notices` name what was repaired or migrated (each one sentence). */
  | { readonly kind: 'ok'; readonly value: T; readonly notices: readonly string[] }
  /** Written by a newer Llama Tray: shown as far as it can be read, never written. */
  | { readonly kind: 'newer'; readonly value: T; readonly version: number }
  /** Not usable at all: the file is set aside. */
  | { readonly kind: 'invalid'; readonly reason: string }

/** How one kind of file is read from and written to JSON. */
export interface JsonCodec<T> {
  decode(json: unknown): Decoded<T>
  /** The JSON to write; throws when `value` is not valid (nothing is written then). */
  encode(value: T): unknown
}

/** Text checks shared by every store: empty, NUL-filled (a crash while writing) and truncated files. */
export function parseJsonText(
  text: string,
): { readonly kind: 'ok'; readonly json: unknown } | { readonly kind: 'invalid'; readonly reason: string } {
  if (text.trim() === '') return { kind: 'invalid', reason: 'the file is empty' }
  if (text.includes('\0')) return { kind: 'invalid', reason: 'the file contains NUL bytes (a crash while writing, or disk damage)' }
  try {
    return { kind: 'ok', json: JSON.parse(text) }
  } catch (err) {
    return { kind: 'invalid', reason: `not valid JSON (${(err as Error).message}); the file may be truncated` }
  }
}

/** The first zod issue as "path: message". */
export function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0]
  return issue ? `${issue.path.join('.') || '(root)'}: ${issue.message}` : 'schema mismatch'
}

/**
 * A codec for a file shaped `{ version, ...data }` checked by one zod schema: an older version is
 * migrated step by step, a newer one opens read-only, a missing version counts as version 1.
 */
export function versionedCodec<S extends z.ZodType<{ version: number }>>(options: {
  readonly schema: S
  readonly version: number
  /** migrations[v] turns a version-v file into a version-(v+1) one. */
  readonly migrations?: Readonly<Record<number, (data: Record<string, unknown>) => Record<string, unknown>>>
}): JsonCodec<z.infer<S>> {
  const { schema, version: current, migrations = {} } = options
  return {
    decode(json) {
      if (typeof json !== 'object' || json === null || Array.isArray(json)) return { kind: 'invalid', reason: 'not a JSON object' }
      let data = json as Record<string, unknown>
      const version = data.version ?? 1
      if (typeof version !== 'number' || !Number.isInteger(version) || version < 1)
        return { kind: 'invalid', reason: 'no valid "version" number' }
      if (version > current) {
        const loose = schema.safeParse({ ...data, version: current })
        return loose.success
          ? { kind: 'newer', value: loose.data, version }
          : { kind: 'invalid', reason: `written by a newer Llama Tray (version ${version})` }
      }
      for (let v = version; v < current; v++) {
        const step = migrations[v]
        if (!step) return { kind: 'invalid', reason: `no migration from version ${v}` }
        data = step(data)
      }
      const checked = schema.safeParse({ ...data, version: current })
      if (!checked.success) return { kind: 'invalid', reason: `invalid file: ${firstIssue(checked.error)}` }
      return { kind: 'ok', value: checked.data, notices: version === current ? [] : [`it was migrated from version ${version}.`] }
    },
    encode: (value) => schema.parse(value),
  }
}
