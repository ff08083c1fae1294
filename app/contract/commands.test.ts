import { describe, expect, it } from 'vitest'
import { COMMAND_NAMES, commandMethodName, EVENT_NAMES, eventMethodName } from './commands'

describe('contract method names', () => {
  it('camel-cases channels for the preload', () => {
    expect(commandMethodName('server:start')).toBe('serverStart')
    expect(commandMethodName('profiles:undo-delete')).toBe('profilesUndoDelete')
    expect(eventMethodName('server:state-changed')).toBe('onServerStateChanged')
    expect(eventMethodName('snapshot')).toBe('onSnapshot')
    expect(commandMethodName('diagnostics:summary')).toBe('diagnosticsSummary')
    expect(commandMethodName('diagnostics:save')).toBe('diagnosticsSave')
  })

  it('gives every channel a distinct method name', () => {
    const names = [...COMMAND_NAMES.map(commandMethodName), ...EVENT_NAMES.map(eventMethodName)]
    expect(new Set(names).size).toBe(names.length)
  })
})
