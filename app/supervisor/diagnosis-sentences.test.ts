import { describe, expect, it } from 'vitest'
import { everyDiagnosis } from '../../test/support/supervisor/every-diagnosis'
import { failureSentence } from '../contract/wording'
import { diagnoseExit } from './diagnose'

// Every diagnosis the supervisor can produce, shown as the sentence users read (CLI, tray, dashboard).

describe('every failure the supervisor diagnoses reads as sentences', () => {
  const diagnoses = everyDiagnosis()

  it('covers each kind of rule', () => {
    expect(new Set(diagnoses.map((d) => d.kind)).size).toBeGreaterThanOrEqual(14)
  })

  it.each(diagnoses.map((d) => [failureSentence(d.reason, d.hint)]))('%s', (text) => {
    expect(text).toMatch(/^[A-Z]/)
    expect(text).toMatch(/[.!?]["”')]?$/)
    // A lowercase letter after a full stop and a space is a sentence that forgot its capital.
    expect(text).not.toMatch(/[.!?] [a-z]/)
  })

  it('the two reported ones read right', () => {
    const missing = diagnoseExit(1, null, ["failed to open GGUF file '/m/moving.gguf' (No such file or directory)"])
    expect(failureSentence(missing.reason, missing.hint)).toBe('The model file moving.gguf does not exist. Check the -m path.')
    const killed = diagnoseExit(null, 'SIGKILL', [])
    expect(failureSentence(killed.reason, killed.hint)).toBe('Llama-server was killed by SIGKILL. See the last log lines.')
  })
})
