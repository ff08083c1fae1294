import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { GGML_TYPE_ID } from '../fit/ggml-types'
import { runCliInProcess } from '../../test/helpers/cli-in-process'
import { writeSyntheticGguf } from '../../test/helpers/synthetic/write-gguf'

// Issue #42 (Low): a 10 MB architecture string was printed in full by `discover` and `models list`.
const root = mkdtempSync(join(tmpdir(), 'llama-tray-long-strings-'))
const models = join(root, 'models')
const home = join(root, 'home')
const ARCH = 'x'.repeat(10 * 1024 * 1024)

beforeAll(async () => {
  mkdirSync(models)
  const tensors = [{ name: 'token_embd.weight', shape: [64, 32], typeId: GGML_TYPE_ID.f32 as number }]
  // An architecture the estimator does not know: listed with the header's facts, its name cut.
  await writeSyntheticGguf(join(models, 'huge-arch.gguf'), {
    metadata: { 'general.architecture': ARCH },
    tensors,
  })
})
afterAll(() => rmSync(root, { recursive: true, force: true }))

describe('long strings from files are cut in every listing', () => {
  it.each([
    ['profiles discover', ['profiles', 'discover']],
    ['profiles discover --json', ['profiles', 'discover', '--json']],
    ['models list', ['models', 'list']],
    ['models list --json', ['models', 'list', '--json']],
  ])('%s shows the architecture cut and marked, never 10 MB of it', async (_what, command) => {
    const r = await runCliInProcess(['--home', home, ...command, '--models-dir', models])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toContain('huge-arch.gguf')
    expect(r.stdout).toContain(`${'x'.repeat(80)}… (10,485,680 more characters)`)
    expect(r.stdout.length).toBeLessThan(64 * 1024)
  })
})
