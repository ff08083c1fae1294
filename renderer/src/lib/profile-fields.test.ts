import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { argsToText, textToArgs } from './args-text'
import { formToSettings, SECTIONS, sectionFields, SETTING_FIELDS, settingsToForm } from './profile-fields'

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
