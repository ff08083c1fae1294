import { describe, expect, it } from 'vitest'
import { profileArgv } from './launch-spec'
import { ProfileSchema } from './schema'
import { PROFILE_TEMPLATES, profileFromTemplate } from './templates'

describe('built-in templates', () => {
  it.each(PROFILE_TEMPLATES.map((t) => [t.id]))('%s is a valid profile waiting for local paths', (id) => {
    const p = profileFromTemplate(id)
    expect(ProfileSchema.parse(p)).toEqual(p)
    expect(p.binary).toBe('')
    expect(p.model).toBe('')
    expect(profileArgv(p).some((a) => a.startsWith('/root') || a.startsWith('/models'))).toBe(false)
  })

  it('puts the local model back where the seed had it', () => {
    const p = { ...profileFromTemplate('rtx3090-ik-apex-i-compact'), binary: '/opt/ik/llama-server', model: '/m/compact.gguf' }
    expect(profileArgv(p).slice(0, 4)).toEqual(['/opt/ik/llama-server', '-m', '/m/compact.gguf', '-b'])
    expect(profileArgv(p)).toContain('-vhad')
  })

  it('keeps the 4060 settings: experts on CPU, no mmap, draft, reasoning off', () => {
    const p = profileFromTemplate('rtx4060-laptop-qwen36-35b-a3b')
    expect(p.settings).toMatchObject({ gpuLayers: '999', nCpuMoe: 34, noMmap: true, reasoning: 'off' })
    expect(p.draftModel).toBe('Qwen3.5-0.8B-Q4_K_M.gguf')
  })
})
