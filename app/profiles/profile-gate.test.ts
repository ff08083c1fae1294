import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { FIXTURES } from '../../test/helpers/paths'
import { forkFromOutput, type ServerBinaryInfo } from './fork-detect'
import { importArgv } from './import-command'
import { renderArgs } from './profile-args'
import { gateProfile, ProfileGateError } from './profile-gate'

const read = (p: string): Promise<string> => readFile(join(FIXTURES, p), 'utf8')
let mainline: ServerBinaryInfo
let ik: ServerBinaryInfo
let buun: ServerBinaryInfo

beforeAll(async () => {
  mainline = forkFromOutput(
    '/opt/llama.cpp/llama-server',
    await read('llama-server/responses/llama-server-help.txt'),
    await read('llama-server/responses/version.txt'),
  )
  ik = forkFromOutput(
    '/opt/ik/llama-server',
    await read('llama-server-forks/ik/help.stdout.txt'),
    await read('llama-server-forks/ik/version.stderr.txt'),
  )
  buun = forkFromOutput(
    '/opt/buun/llama-server',
    await read('llama-server-forks/buun/help.stdout.txt'),
    await read('llama-server-forks/buun/version.stderr.txt'),
  )
})

const profile = (binary: string, ...args: string[]) => importArgv([binary, '-m', '/models/a.gguf', ...args], { now: new Date(0) })

describe('the profile gate', () => {
  it('translates --no-mmap to -lm none for a binary with --load-mode, and says so once', async () => {
    const gated = await gateProfile(profile(mainline.binary, '--no-mmap', '-c', '4096'), { home: '/nonexistent', binaryInfo: mainline })
    expect(renderArgs(gated.profile)).toEqual(['-m', '/models/a.gguf', '-lm', 'none', '-c', '4096'])
    expect(gated.notices).toHaveLength(1)
    expect(gated.notices[0]).toMatch(/^The flag --no-mmap was written as -lm none, because llama\.cpp mainline .*\.$/)
  })

  it('translates -lm none (and --load-mode mlock, mmap+mlock) back to --no-mmap / --mlock for ik_llama and buun', async () => {
    const a = await gateProfile(profile(ik.binary, '-lm', 'none'), { home: '/nonexistent', binaryInfo: ik })
    expect(renderArgs(a.profile)).toEqual(['-m', '/models/a.gguf', '--no-mmap'])
    expect(a.notices[0]).toMatch(/^The flag -lm was written as --no-mmap, because ik_llama\.cpp 4840 .*\.$/)
    const b = await gateProfile(profile(buun.binary, '--load-mode', 'mlock'), { home: '/nonexistent', binaryInfo: buun })
    expect(renderArgs(b.profile)).toEqual(['-m', '/models/a.gguf', '--no-mmap', '--mlock'])
    const c = await gateProfile(profile(buun.binary, '--load-mode=mmap+mlock'), { home: '/nonexistent', binaryInfo: buun })
    expect(renderArgs(c.profile)).toEqual(['-m', '/models/a.gguf', '--mlock'])
    const d = await gateProfile(profile(ik.binary, '-lm', 'mmap'), { home: '/nonexistent', binaryInfo: ik })
    expect(renderArgs(d.profile)).toEqual(['-m', '/models/a.gguf'])
    expect(d.notices[0]).toMatch(/^The flag -lm was left out, because/)
  })

  it('round-trips: what it writes for one binary comes back to the same meaning on the other', async () => {
    const onMainline = await gateProfile(profile(mainline.binary, '--no-mmap'), { home: '/nonexistent', binaryInfo: mainline })
    const back = await gateProfile({ ...onMainline.profile, binary: ik.binary }, { home: '/nonexistent', binaryInfo: ik })
    expect(renderArgs(back.profile)).toEqual(['-m', '/models/a.gguf', '--no-mmap'])
  })

  it('leaves a profile the binary accepts as it is, with no notice', async () => {
    const p = profile(mainline.binary, '-lm', 'none', '-c', '4096')
    const gated = await gateProfile(p, { home: '/nonexistent', binaryInfo: mainline })
    expect(gated.profile).toBe(p)
    expect(gated.notices).toEqual([])
  })

  it('adds --spec-type to a draft model on mainline (a draft alone does not speculate)', async () => {
    const gated = await gateProfile(profile(mainline.binary, '-md', '/models/d.gguf'), { home: '/nonexistent', binaryInfo: mainline })
    expect(renderArgs(gated.profile)).toContain('--spec-type')
    expect(gated.notices[0]).toMatch(
      /^The flag --spec-type draft-simple was added beside -md, because llama\.cpp mainline .* does not use -md without it\.$/,
    )
  })

  it('refuses a flag the binary rejects with no same-meaning spelling, in one sentence', async () => {
    const p = profile(mainline.binary, '--no-such-flag-anywhere')
    const err = await gateProfile(p, { home: '/nonexistent', binaryInfo: mainline }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ProfileGateError)
    const message = (err as Error).message
    expect(message).toMatch(
      /^The profile was not saved: llama\.cpp mainline .* rejects --no-such-flag-anywhere .*; remove it or choose a binary that accepts it\.$/,
    )
    expect(message).not.toContain('\n')
    // The engine is named, never its path.
    expect(message).not.toContain(mainline.binary)
    expect(message).not.toMatch(/[\\/][^\s]*[\\/]/)
    expect((err as ProfileGateError).toProblem().details).toContain(`Binary: ${mainline.binary}`)
  })

  it('stores without a flag check when there is no binary to ask', async () => {
    const p = importArgv(['-m', '/models/a.gguf', '--no-mmap'])
    const gated = await gateProfile(p, { home: '/nonexistent' })
    expect(gated.binaryInfo).toBeNull()
    expect(gated.profile).toBe(p)
  })

  it('returns the advisor findings on the translated profile, info level left out', async () => {
    const seen: string[][] = []
    const gated = await gateProfile(profile(mainline.binary, '--no-mmap'), {
      home: '/nonexistent',
      binaryInfo: mainline,
      advise: async (p) => {
        seen.push(renderArgs(p))
        return [
          { id: 'a', level: 'info', headline: 'An info.', reason: '' },
          { id: 'b', level: 'warn', headline: 'A warning.', reason: '' },
        ]
      },
    })
    expect(seen).toEqual([['-m', '/models/a.gguf', '-lm', 'none']])
    expect(gated.findings.map((f) => f.id)).toEqual(['b'])
  })
})
