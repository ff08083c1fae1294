import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Discovery, DiscoveredModel } from '../contract/profile'
import { llamaServerBin } from '../../test/helpers/llama-server-bin'
import { model } from '../../test/helpers/paths'
import { discover } from './discovery'
import { bestDraft, bestModel, profileFromDiscovery } from './discovery-profile'
import { gateProfile } from './profile-gate'
import { renderArgs } from './profile-args'

// Issue #25: a draft-sized model is offered as the draft of the model it matches (its vocabulary, else its family, and a
// quarter of its size at most), not of any model found, and the profile made with it speculates (--spec-type), on the
// repository's tiny models and the real test llama-server.
let root: string
let found: Discovery
const named = (file: string): DiscoveredModel => {
  const m = found.models.find((x) => x.path.endsWith(`/${file}`))
  if (!m) throw new Error(`${file} was not discovered`)
  return m
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'llama-tray-drafts-'))
  const models = join(root, 'models')
  const bin = join(root, 'bin')
  mkdirSync(models)
  mkdirSync(bin)
  symlinkSync(llamaServerBin(), join(bin, 'llama-server'))
  // The target (6.4 MiB), its IQ4_NL copy (4.2 MiB: the 1.4 MiB draft is over a quarter of it) and the draft.
  for (const f of ['tiny-target.gguf', 'tiny-target-iq.gguf', 'tiny-draft.gguf']) copyFileSync(model(f), join(models, f))
  found = await discover({
    home: join(root, 'home'),
    homedir: join(root, 'nobody'),
    env: { PATH: bin },
    platform: 'linux',
    extraModelDirs: [models],
    detect: true,
  })
}, 900_000)
afterAll(() => rmSync(root, { recursive: true, force: true }))

describe('drafts offered for the model they match', () => {
  it('the draft is draft-sized for the Q8_0 target only, so it is offered for that one and not for the IQ4_NL copy', () => {
    const target = named('tiny-target.gguf')
    const iq = named('tiny-target-iq.gguf')
    const draft = named('tiny-draft.gguf')
    expect(draft.looksLikeDraft).toBe(true)
    expect(draft.draftFor).toEqual([target.id])
    expect(bestModel(found)?.id).toBe(target.id)
    expect(bestDraft(found, target)?.id).toBe(draft.id)
    expect(bestDraft(found, iq)).toBeNull()
  })

  it('the profile made with it passes the gate with --spec-type, so the draft is used', async () => {
    const target = named('tiny-target.gguf')
    const draft = bestDraft(found, target)
    const binary = found.binaries[0]
    if (!draft || !binary) throw new Error('nothing discovered')
    const created = profileFromDiscovery(found, { binary: binary.id, model: target.id, draftModel: draft.id, name: null }, [])
    const gated = await gateProfile(created, { home: join(root, 'home') })
    const args = renderArgs(gated.profile)
    expect(args).toEqual(expect.arrayContaining(['-md', draft.path]))
    expect(args[args.indexOf('--spec-type') + 1]).toBe('draft-simple')
  })
})
