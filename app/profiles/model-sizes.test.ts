import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { model } from '../../test/helpers/paths'
import { recordedModelSize, recordModelSizes } from './model-sizes'

const home = mkdtempSync(join(tmpdir(), 'llama-tray-sizes-'))
afterAll(() => rmSync(home, { recursive: true, force: true }))

describe('the recorded sizes of model files', () => {
  it('records the size of each file that exists, by path; a file gone keeps its size', async () => {
    const file = join(home, 'a.gguf')
    writeFileSync(file, 'x'.repeat(10))
    await recordModelSizes(home, [model('tiny-target.gguf'), file, null, join(home, 'gone.gguf')])
    expect(await recordedModelSize(home, model('tiny-target.gguf'))).toBe(statSync(model('tiny-target.gguf')).size)
    expect(await recordedModelSize(home, file)).toBe(10)
    expect(await recordedModelSize(home, join(home, 'gone.gguf'))).toBeNull()
    // The file moves away: its size stays known (that is what it is for).
    rmSync(file)
    await recordModelSizes(home, [file])
    expect(await recordedModelSize(home, file)).toBe(10)
  })
})
