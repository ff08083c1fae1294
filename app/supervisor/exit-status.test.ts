import { describe, expect, it } from 'vitest'
import { diagnoseExit } from './diagnose'
import { diagnoseExitStatus, spawnFailureHint } from './exit-status'

describe('what an exit status says when the log says nothing', () => {
  it('names Windows NTSTATUS codes, unsigned as Node gives them or negative as int32', () => {
    expect(diagnoseExitStatus(3221225781, null)).toMatchObject({
      kind: 'load-failed',
      deterministic: true,
      reason: expect.stringContaining('DLL it needs is missing'),
    })
    expect(diagnoseExitStatus(-1073741515, null)?.reason).toContain('STATUS_DLL_NOT_FOUND')
    // Seed 000: Smart App Control silently blocked an unsigned DLL.
    expect(diagnoseExitStatus(0xc0000428, null)?.hint).toContain('Smart App Control')
    expect(diagnoseExitStatus(0xc000001d, null)).toMatchObject({ deterministic: true, reason: expect.stringContaining('CPU instruction') })
    expect(diagnoseExitStatus(0xc0000005, null)).toMatchObject({ kind: 'crashed', deterministic: false })
  })

  it('knows SIGILL, and leaves ordinary codes and signals to the generic message', () => {
    expect(diagnoseExitStatus(null, 'SIGILL')?.reason).toContain('(SIGILL)')
    expect(diagnoseExitStatus(1, null)).toBeNull()
    expect(diagnoseExitStatus(null, 'SIGKILL')).toBeNull()
    expect(diagnoseExit(1, null, [])).toMatchObject({ kind: 'crashed', reason: 'llama-server exited with code 1' })
    expect(diagnoseExit(3221225781, null, ['some unrelated line']).kind).toBe('load-failed')
  })

  it('lets a log line that explains the exit win over the status', () => {
    const lines = ['0.00.100.000 E llama_model_load: error loading model: tensor data is not within the file bounds']
    expect(diagnoseExit(0xc0000409, null, lines).kind).not.toBe('assertion')
  })

  it('hints at Smart App Control when Windows refuses the spawn itself', () => {
    expect(spawnFailureHint('UNKNOWN', 'win32')).toContain('Smart App Control')
    expect(spawnFailureHint('EACCES', 'linux')).toBe('make the binary executable (chmod +x)')
    expect(spawnFailureHint('ENOENT', 'linux')).toBe('check the binary path')
  })
})
