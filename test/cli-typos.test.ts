import { describe, expect, it } from 'vitest'
import { runCli } from './helpers/cli'

// Issue #25: what a person mistypes gets one sentence with the fix, never the argument parser's own text.
describe('the built CLI on mistyped options', () => {
  it.each([
    [['run', 'x', '--duraton', '5'], "Unknown option --duraton (did you mean --duration?); --help lists this command's options."],
    [['gpu', '--interval', '-5'], 'The option --interval takes a number of milliseconds above 0, like 1000; "-5" is not one.'],
  ])('llama-tray %j', async (args, sentence) => {
    const r = await runCli(args)
    expect(r.stderr).toBe(`llama-tray: ${sentence}\n`)
    expect(r.code).toBe(2)
    expect(r.stdout).toBe('')
  })
})
