import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { argsToText, textToArgs } from './args-text'
import { formToSettings, settingsToForm } from './profile-fields'

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

  it('extra arguments one per line round-trip (spaces inside an argument kept)', () => {
    fc.assert(
      fc.property(fc.array(fc.string().map((s) => s.replace(/[\r\n]/g, '').trim()).filter((s) => s.length > 0)), (args) => {
        expect(textToArgs(argsToText(args))).toEqual(args)
      }),
      { numRuns: 1000 },
    )
    expect(textToArgs('--override-tensor\nexps=CPU\n\n  C:\\Program Files\\x.gguf  \r\n')).toEqual(['--override-tensor', 'exps=CPU', 'C:\\Program Files\\x.gguf'])
  })
})
