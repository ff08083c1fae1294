import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { tokenizeCommandLine } from '../lib/command-line'
import { exportBatchScript, exportCommandLine, exportShellScript, ExportError } from './export-command'
import { importArgv, importCommand, ImportError } from './import-command'
import { profileArgv, profileToLaunchSpec } from './launch-spec'
import { SEED_3090_BUUN_I_QUALITY, SEED_3090_IK_I_COMPACT, SEED_4060_QWEN36 } from './seed-commands'

// What a POSIX shell gives for the seed commands (continuations joined, split on spaces).
const shellWords = (text: string): string[] => text.replace(/\\\n/g, ' ').split(/\s+/).filter(Boolean)

describe('importing the seed commands', () => {
  it.each([
    ['4060 Qwen3.6', SEED_4060_QWEN36],
    ['3090 ik I-Compact', SEED_3090_IK_I_COMPACT],
    ['3090 buun I-Quality', SEED_3090_BUUN_I_QUALITY],
  ])('%s gives back the original argument vector', (_name, text) => {
    const profile = importCommand(text)
    expect(profileArgv(profile)).toEqual(shellWords(text))
  })

  it('types the fields people tune and keeps fork-only flags untouched', () => {
    const ik = importCommand(SEED_3090_IK_I_COMPACT)
    expect(ik.binary).toBe('/root/ik_llama.cpp/build/bin/llama-server')
    expect(ik.model).toBe('/models/Qwen3.6-35B-A3B-APEX-MTP-I-Compact.gguf')
    expect(ik.settings).toMatchObject({
      ctxSize: 196608,
      parallel: 1,
      noMmap: true,
      mlock: true,
      cacheTypeK: 'q8_0',
      cacheTypeV: 'q5_0',
      gpuLayers: '99',
      flashAttn: 'on',
      host: '0.0.0.0',
      port: 8000,
      reasoningBudget: 0,
    })
    // -vhad twice: the duplicate is kept as written (may be intended), never rewritten.
    expect(ik.extraArgs.filter((a) => a === '-vhad')).toHaveLength(2)
    expect(ik.extraArgs).toEqual(
      expect.arrayContaining(['--merge-qkv', '--recurrent-ckpt-mode', 'auto', '--parallel-tool-calls', '-b', '4096']),
    )
    const buun = importCommand(SEED_3090_BUUN_I_QUALITY)
    expect(buun.settings.cacheTypeK).toBe('turbo8')
    expect(buun.settings.cacheTypeV).toBe('turbo4')
    const laptop = importCommand(SEED_4060_QWEN36)
    expect(laptop.binary).toBe('')
    expect(laptop.draftModel).toBe('Qwen3.5-0.8B-Q4_K_M.gguf')
    expect(laptop.settings).toMatchObject({
      nCpuMoe: 34,
      temp: 0.6,
      topK: 20,
      topP: 0.95,
      minP: 0,
      presencePenalty: 1.5,
      draftGpuLayers: '99',
      reasoning: 'off',
    })
  })
})

describe('importing real-world pastes', () => {
  const cases: Array<[string, string, string[]]> = [
    [
      'Windows cmd with ^ continuations and a quoted path with spaces',
      '"C:\\Program Files\\llama.cpp\\llama-server.exe" ^\r\n  -m "D:\\My Models\\Qwen3.6-35B-A3B-Q4_K_M.gguf" ^\r\n  -ngl 999 ' +
        '--n-cpu-moe 34 -c 65536',
      [
        'C:\\Program Files\\llama.cpp\\llama-server.exe',
        '-m',
        'D:\\My Models\\Qwen3.6-35B-A3B-Q4_K_M.gguf',
        '-ngl',
        '999',
        '--n-cpu-moe',
        '34',
        '-c',
        '65536',
      ],
    ],
    [
      'PowerShell with the call operator and backtick continuations',
      "& 'C:\\llama\\llama-server.exe' `\n  -m 'C:\\models\\it''s.gguf' `\n  --port=8081 -fa on",
      ['C:\\llama\\llama-server.exe', '-m', "C:\\models\\it's.gguf", '--port=8081', '-fa', 'on'],
    ],
    [
      'bare Windows paths and = joined flags',
      'C:\\llama\\llama-server.exe --model=C:\\models\\a.gguf --ctx-size=8192 -ot "blk\\.(1[0-9])\\.ffn_.*_exps=CPU"',
      ['C:\\llama\\llama-server.exe', '--model=C:\\models\\a.gguf', '--ctx-size=8192', '-ot', 'blk\\.(1[0-9])\\.ffn_.*_exps=CPU'],
    ],
    [
      'environment assignments, JSON in single quotes, a UNC path',
      `CUDA_VISIBLE_DEVICES=0 ./llama-server -m "\\\\nas\\models\\q.gguf" --chat-template-kwargs '{"enable_thinking":false}' ` +
        `--spec-type draft:n_max=8,p_min=0.0`,
      [
        './llama-server',
        '-m',
        '\\\\nas\\models\\q.gguf',
        '--chat-template-kwargs',
        '{"enable_thinking":false}',
        '--spec-type',
        'draft:n_max=8,p_min=0.0',
      ],
    ],
  ]
  it.each(cases)('%s', (_name, text, argv) => {
    const profile = importCommand(text)
    expect(profileArgv(profile)).toEqual(argv)
  })

  it('reads aliases into the same typed field', () => {
    expect(importCommand('llama-server --ctx-size 4096').settings.ctxSize).toBe(4096)
    expect(importCommand('llama-server -c 4096').settings.ctxSize).toBe(4096)
    expect(importCommand('llama-server --ctx-size=4096').settings.ctxSize).toBe(4096)
    expect(importCommand('llama-server -ncmoe 4').settings.nCpuMoe).toBe(4)
    expect(importCommand('llama-server --model-draft d.gguf').draftModel).toBe('d.gguf')
  })

  it('takes environment variables from NAME=value before the binary', () => {
    expect(importCommand('CUDA_VISIBLE_DEVICES=1 llama-server -m a.gguf').env).toEqual({ CUDA_VISIBLE_DEVICES: '1' })
  })

  it.each([
    ['llama-server -m a.gguf && echo done', /shell operator/],
    ['llama-server -m a.gguf | tee log', /shell operator/],
    ['llama-server -m a.gguf > log.txt', /shell operator/],
    ['llama-server -m $MODEL', /variable/],
    ['llama-server -m %MODEL%', /variable/],
    ['start-server.bat -m a.gguf', /script/],
    ['C:\\tools\\run.cmd', /script/],
    ['.\\launch.ps1', /script/],
    ['   ', /empty/],
    ['llama-server -m "a.gguf', /unterminated/],
  ])('refuses %s', (text, reason) => {
    expect(() => importCommand(text)).toThrow(ImportError)
    expect(() => importCommand(text)).toThrow(reason)
  })

  it('keeps a value it cannot type exactly as written', () => {
    const p = importCommand('llama-server -c 065536 --temp 1e-1 -fa -ctk q8_0')
    expect(profileArgv(p)).toEqual(['llama-server', '-c', '065536', '--temp', '1e-1', '-fa', '-ctk', 'q8_0'])
    expect(p.settings.ctxSize).toBeUndefined()
  })

  it('writes typed fields set after the import, in a stable order', () => {
    const p = importCommand('llama-server -m a.gguf -vhad')
    const edited = { ...p, settings: { ...p.settings, ctxSize: 4096, parallel: 1 } }
    expect(profileToLaunchSpec(edited).args).toEqual(['-m', 'a.gguf', '-vhad', '-c', '4096', '-np', '1'])
  })
})

// Arguments a process can receive: no NUL, no lone surrogates.
const wellFormed = (s: string): boolean => !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s)
const argText = fc.string({ unit: 'binary', maxLength: 12 }).filter((s) => !s.includes('\0') && wellFormed(s))
const flagish = fc.constantFrom(
  '-m',
  '-md',
  '-c',
  '--port',
  '--port=8080',
  '-ngl',
  '--no-mmap',
  '--temp',
  '0.6',
  '-vhad',
  '--ctx-size=0',
  '-1',
  '',
)
const arg = fc.oneof(argText, flagish)
const exe = fc
  .string({ unit: 'binary', minLength: 1, maxLength: 10 })
  .filter(
    (s) => !s.includes('\0') && wellFormed(s) && !s.startsWith('-') && !/\.(bat|cmd|ps1)$/i.test(s) && !/^[A-Za-z_][A-Za-z0-9_]*=/.test(s),
  )
const argv = fc.tuple(exe, fc.array(arg, { maxLength: 10 })).map(([e, rest]) => [e, ...rest])

describe('export then import gives the same arguments (property)', () => {
  it('bash, over 10,000 generated unicode argument vectors', () => {
    fc.assert(
      fc.property(argv, (v) => {
        const profile = importArgv(v)
        const back = importCommand(exportCommandLine(profile, 'bash'), { dialect: 'posix' })
        expect(profileArgv(back)).toEqual(v)
      }),
      { numRuns: 10_000 },
    )
  }, 120_000)

  it('PowerShell, over 10,000 generated unicode argument vectors', () => {
    fc.assert(
      fc.property(argv, (v) => {
        const line = exportCommandLine(importArgv(v), 'powershell')
        expect(profileArgv(importCommand(line))).toEqual(v)
      }),
      { numRuns: 10_000 },
    )
  }, 120_000)

  it('cmd.exe, over 10,000 vectors without the characters cmd cannot carry', () => {
    const cmdArgv = argv.filter((v) => v.every((a) => !/[\r\n"%]/.test(a)))
    fc.assert(
      fc.property(cmdArgv, (v) => {
        const line = exportCommandLine(importArgv(v), 'cmd')
        expect(profileArgv(importCommand(line, { dialect: 'cmd' }))).toEqual(v)
      }),
      { numRuns: 10_000 },
    )
  }, 120_000)

  it('cmd export refuses what cmd.exe would change, instead of writing it wrong', () => {
    expect(() => exportCommandLine(importArgv(['llama-server', '--api-key', 'a%PATH%b']), 'cmd')).toThrow(ExportError)
    expect(() => exportCommandLine(importArgv(['llama-server', '--chat-template-kwargs', '{"a":1}']), 'cmd')).toThrow(ExportError)
  })
})

describe('scripts', () => {
  it('.sh and .bat scripts hold the command and the environment', () => {
    const p = importCommand('CUDA_VISIBLE_DEVICES=0 /opt/llama-server -m "/m/a b.gguf" -c 4096')
    const sh = exportShellScript(p)
    expect(sh.startsWith('#!/bin/sh\n')).toBe(true)
    expect(sh).toContain("export CUDA_VISIBLE_DEVICES=0\nexec /opt/llama-server \\\n  -m \\\n  '/m/a b.gguf'")
    const execLine = sh.slice(sh.indexOf('exec ') + 5)
    expect(tokenizeCommandLine(execLine, { dialect: 'posix' })).toEqual(['/opt/llama-server', '-m', '/m/a b.gguf', '-c', '4096'])
    const bat = exportBatchScript(p)
    expect(bat).toContain('set "CUDA_VISIBLE_DEVICES=0"\r\n')
    const cmdLine = bat.split('\r\n').slice(4).join('\r\n')
    expect(tokenizeCommandLine(cmdLine, { dialect: 'cmd' })).toEqual(['/opt/llama-server', '-m', '/m/a b.gguf', '-c', '4096'])
  })
})

describe("llama.cpp's one program (llama serve)", () => {
  it('keeps llama as the binary, serve out of the arguments, and exports the same spelling', () => {
    const profile = importCommand('C:\\llama\\llama.exe serve -m C:\\m\\model.gguf -c 8192', { dialect: 'cmd' })
    expect(profile.binary).toBe('C:\\llama\\llama.exe')
    expect(profile.extraArgs).not.toContain('serve')
    expect(exportCommandLine(profile, 'cmd')).toMatch(/^C:\\llama\\llama\.exe serve -m C:\\m\\model\.gguf /)
    expect(exportShellScript(importArgv(['/usr/bin/llama', 'serve', '-m', '/m/a.gguf']))).toMatch(
      /exec \/usr\/bin\/llama \\\n {2}serve \\\n {2}-m/,
    )
  })

  it('refuses llama without serve with a sentence saying to add it', () => {
    expect(() => importArgv(['/usr/bin/llama', '-m', '/m/a.gguf'])).toThrow(
      new ImportError('"llama" runs llama-server only as "llama serve": add serve after it, then the server\'s flags.'),
    )
    expect(() => importArgv(['llama.exe', 'run', '-m', 'a.gguf'])).toThrow(/add serve after it/)
  })
})
