import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { HOSTILE_GGUFS } from '../../test/fuzz/hostile-ggufs'
import { GgufError } from './gguf-error'
import { readGgufModel } from './gguf-model'

const tmp = mkdtempSync(join(tmpdir(), 'llama-tray-hostile-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

describe('readGgufModel on hostile files (issue #26)', () => {
  it.each(HOSTILE_GGUFS.map((h) => [h.name, h] as const))(
    '%s is one GgufError sentence, before any loop over its counts',
    async (name, hostile) => {
      const path = join(tmp, name)
      await hostile.write(path)
      const err = await readGgufModel(path).then(
        () => null,
        (e: unknown) => e,
      )
      expect(err).toBeInstanceOf(GgufError)
      const message = (err as Error).message
      expect(message).toMatch(hostile.why)
      expect(message).toMatch(new RegExp(`^${name.replace(/\./g, '\\.')} is not a usable GGUF model: .+\\. Re-download it\\.$`))
    },
  )
})
