import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { HOSTILE_GGUFS } from '../../test/fuzz/hostile-ggufs'
import { model } from '../../test/helpers/paths'
import { discover } from './discovery'

const root = mkdtempSync(join(tmpdir(), 'llama-tray-discovery-hostile-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

describe('discovery with hostile GGUFs in a models folder (issue #26)', () => {
  it('lists each with its one-sentence reason beside the good model, instead of hanging', async () => {
    const dir = join(root, 'my-models')
    mkdirSync(dir)
    copyFileSync(model('tiny-draft.gguf'), join(dir, 'good.gguf'))
    for (const h of HOSTILE_GGUFS) await h.write(join(dir, h.name))
    const found = await discover({
      home: join(root, 'tray'),
      homedir: join(root, 'home'),
      platform: 'linux',
      env: { PATH: '' },
      extraModelDirs: [dir],
    })
    const byName = new Map(found.models.map((m) => [m.path.split('/').pop(), m]))
    expect(byName.get('good.gguf')).toMatchObject({ architecture: 'qwen3', problem: null })
    for (const h of HOSTILE_GGUFS) {
      const listed = byName.get(h.name)
      expect(listed, h.name).toMatchObject({ layers: null, experts: null })
      expect(listed?.problem).toMatch(h.why)
      expect(listed?.problem).toMatch(/ is not a usable GGUF model: .+\. Re-download it\.$/)
    }
  })
})
