import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { argsToText, textToArgs } from './args-text'
import type { BinaryFlags } from '../../../app/contract/binary-flags'
import { fieldsFor, formToSettings, SECTIONS, sectionFields, SETTING_FIELDS, settingsToForm } from './profile-fields'

// Binaries as their --help lists them (the recorded helps are read in app/profiles/binary-flags.test.ts): mainline since
// --load-mode, without --no-mmap or --mlock; a fork (ik_llama.cpp, buun) and an older mainline with --no-mmap and no -lm.
const COMMON = ['-m', '-md', '-c', '-np', '-ngl', '--n-cpu-moe', '--cpu-moe', '--temp', '--host', '--port', '--spec-type']
const WITH_LOAD_MODE: BinaryFlags = { fork: 'mainline', flags: [...COMMON, '-lm', '--load-mode'] }
const WITH_NO_MMAP: BinaryFlags = { fork: 'buun', flags: [...COMMON, '--no-mmap', '--mlock'] }

describe('profile editor fields', () => {
  it('settings survive a round trip through the form, unknown ones kept', () => {
    const settings = { nCpuMoe: 30, ctxSize: 32768, noMmap: true, cacheTypeK: 'q8_0', apiKey: 'secret', temp: 0.6 }
    const back = formToSettings(settingsToForm(settings), settings)
    expect(back).toEqual({ settings })
  })

  it('an emptied field unsets the setting; a bad number is an error naming the flag', () => {
    const form = settingsToForm({ nCpuMoe: 30, ctxSize: 4096 })
    expect(formToSettings({ ...form, nCpuMoe: '' }, { nCpuMoe: 30, ctxSize: 4096 })).toEqual({ settings: { ctxSize: 4096 } })
    expect(formToSettings({ ...form, ctxSize: '32k' }, {})).toEqual({ error: expect.stringContaining('-c') })
    expect(formToSettings({ ...form, cpuMoe: false }, { cpuMoe: true })).toEqual({ settings: { nCpuMoe: 30, ctxSize: 4096 } })
  })

  it('the RAM checkbox reads -lm none, and unticking it clears -lm none instead of adding --no-mmap', () => {
    const lm = { loadMode: 'none', ctxSize: 4096 }
    const form = settingsToForm(lm)
    expect(form.noMmap).toBe(true)
    expect(formToSettings(form, lm)).toEqual({ settings: lm })
    expect(formToSettings({ ...form, noMmap: false }, lm)).toEqual({ settings: { ctxSize: 4096 } })
    expect(formToSettings(settingsToForm({}), {})).toEqual({ settings: {} })
    expect(SETTING_FIELDS.find((f) => f.key === 'noMmap')?.flag).toBe('-lm none (--no-mmap on older builds)')
  })

  it("the RAM checkbox writes the binary's spelling: -lm none where it has no --no-mmap, --no-mmap where it has no -lm", () => {
    const ticked = { ...settingsToForm({ ctxSize: 4096 }), noMmap: true }
    expect(formToSettings(ticked, { ctxSize: 4096 }, WITH_LOAD_MODE)).toEqual({ settings: { ctxSize: 4096, loadMode: 'none' } })
    expect(formToSettings(ticked, { ctxSize: 4096 }, WITH_NO_MMAP)).toEqual({ settings: { ctxSize: 4096, noMmap: true } })
    // A profile written for the other kind of binary is read, and saved in this one's words.
    const fromFork = settingsToForm({ noMmap: true })
    expect(formToSettings(fromFork, { noMmap: true }, WITH_LOAD_MODE)).toEqual({ settings: { loadMode: 'none' } })
    const fromMainline = settingsToForm({ loadMode: 'none' })
    expect(fromMainline.noMmap).toBe(true)
    expect(formToSettings(fromMainline, { loadMode: 'none' }, WITH_NO_MMAP)).toEqual({ settings: { noMmap: true } })
    // Unticked, neither is written.
    expect(formToSettings({ ...fromMainline, noMmap: false }, { loadMode: 'none' }, WITH_LOAD_MODE)).toEqual({ settings: {} })
    // A binary not known yet: the form's own key, spelled by the core's gate at save.
    expect(formToSettings(ticked, { ctxSize: 4096 }, null)).toEqual({ settings: { ctxSize: 4096, noMmap: true } })
  })

  it("offers only the controls whose flag the binary takes, labelled with the binary's spelling", () => {
    const shown = (binary: BinaryFlags | null): Record<string, string> => Object.fromEntries(fieldsFor(binary).map((f) => [f.key, f.flag]))
    const mainline = shown(WITH_LOAD_MODE)
    expect(mainline.noMmap).toBe('-lm none')
    expect(mainline.loadMode).toBe('-lm')
    expect(mainline.mlock).toBeUndefined()
    expect(mainline.ctxSize).toBe('-c')
    const fork = shown(WITH_NO_MMAP)
    expect(fork.noMmap).toBe('--no-mmap')
    expect(fork.loadMode).toBeUndefined()
    expect(fork.mlock).toBe('--mlock')
    // Without --no-mmap and -lm there is no RAM checkbox at all; with no flags known, every control.
    expect(shown({ fork: 'mainline', flags: COMMON }).noMmap).toBeUndefined()
    expect(fieldsFor(null).map((f) => f.key)).toEqual(SETTING_FIELDS.map((f) => f.key))
    expect(sectionFields('offload', WITH_NO_MMAP).more.map((f) => f.key)).toEqual(['cpuMoe', 'mlock'])
  })

  it('every field belongs to one section, each flag once, and every section with fields shows some before "More"', () => {
    const flags = SETTING_FIELDS.map((f) => f.flag)
    expect(new Set(flags).size).toBe(flags.length)
    const inSections = SECTIONS.flatMap((s) => [...sectionFields(s.id).common, ...sectionFields(s.id).more])
    expect(inSections.map((f) => f.key).sort()).toEqual(SETTING_FIELDS.map((f) => f.key).sort())
    for (const s of SECTIONS.filter((x) => x.id !== 'model')) expect(sectionFields(s.id).common.length, s.title).toBeGreaterThan(0)
    // Plain language: no label is just its flag.
    for (const f of SETTING_FIELDS) expect(f.label).not.toMatch(/^-/)
  })

  it('extra arguments one per line round-trip (spaces inside an argument kept)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc
            .string()
            .map((s) => s.replace(/[\r\n]/g, '').trim())
            .filter((s) => s.length > 0),
        ),
        (args) => {
          expect(textToArgs(argsToText(args))).toEqual(args)
        },
      ),
      { numRuns: 1000 },
    )
    expect(textToArgs('--override-tensor\nexps=CPU\n\n  C:\\Program Files\\x.gguf  \r\n')).toEqual([
      '--override-tensor',
      'exps=CPU',
      'C:\\Program Files\\x.gguf',
    ])
  })
})
