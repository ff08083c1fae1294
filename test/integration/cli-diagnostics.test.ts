import { existsSync } from 'node:fs'
import { readdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SUMMARY_MAX_COLUMNS, SUMMARY_MAX_LINES } from '../../app/diagnostics/summary'
import { readZipTexts } from '../support/diagnostics/read-zip'
import { makeSecretHome, SECRETS, USER, type SecretHome } from '../support/diagnostics/secret-home'
import { fakeSmiEnv } from '../support/telemetry/fake-smi-env'
import { runCli } from '../helpers/cli'

// `llama-tray diagnostics` end to end on the built CLI (npm run build:cli): a home holding a key in every
// supported way, the app's environment with keys and tokens, and the fake nvidia-smi (H200 captures) on PATH.
let fixture: SecretHome
let env: NodeJS.ProcessEnv

beforeAll(async () => {
  fixture = await makeSecretHome()
  env = fakeSmiEnv('', { ...fixture.env })
})
afterAll(async () => {
  if (fixture) await rm(fixture.home, { recursive: true, force: true })
})

const diagnostics = (...args: string[]) => runCli(['--home', fixture.home, 'diagnostics', ...args], env)

function expectNoSecret(name: string, text: string): void {
  for (const secret of Object.values(SECRETS)) expect(text.includes(secret), `${secret} in ${name}`).toBe(false)
  expect(text.toLowerCase().includes(USER), `${USER} in ${name}`).toBe(false)
}

describe('llama-tray diagnostics', () => {
  it('prints a one-screen summary with no secret in it', async () => {
    const r = await diagnostics()
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    const lines = r.stdout.trimEnd().split('\n')
    expect(lines.length).toBeLessThanOrEqual(SUMMARY_MAX_LINES)
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(SUMMARY_MAX_COLUMNS)
    expect(lines[0]).toMatch(/^Llama Tray diagnostics, \d{4}-/)
    expect(r.stdout).toContain('NVIDIA driver 580.159.04 · CUDA 13.0')
    expect(r.stdout).toContain('GPU 0: NVIDIA H200')
    expect(r.stdout).toContain(`Active profile: inline (${fixture.activeProfileId})`)
    expect(r.stdout).toContain('--api-key ***')
    expectNoSecret('the summary', r.stdout)
  })

  it('writes the zip (--out) and prints the report (--json), both redacted', async () => {
    const out = join(fixture.home, 'diagnostics.zip')
    const r = await diagnostics('--out', out, '--json')
    expect(r.code).toBe(0)
    expect(r.stderr).toBe(`Saved ${out} (summary.txt, diagnostics.json, llama-server.log): keys, tokens and your user name are redacted.\n`)
    const report = JSON.parse(r.stdout) as { profiles: { list: { id: string }[] }; versions: { app: string } }
    expect(report.profiles.list).toHaveLength(7)
    expect(report.versions.app).toMatch(/^\d+\.\d+\.\d+/)
    expectNoSecret('--json', r.stdout)
    const entries = await readZipTexts(out)
    expect([...entries.keys()]).toEqual(['summary.txt', 'diagnostics.json', 'llama-server.log'])
    for (const [name, text] of entries) expectNoSecret(name, text)
  })

  it('refuses a file it cannot write with one sentence and exit code 1, leaving nothing', async () => {
    const out = join(fixture.home, 'missing', 'd.zip')
    const r = await diagnostics('--out', out)
    expect(r.code).toBe(1)
    const sentence = `Cannot save the diagnostics to ${out} because its folder does not exist: choose another file or folder.`
    expect(r.stderr.split('\n')[0]).toBe(`llama-tray: ${sentence}`)
    expect(existsSync(join(fixture.home, 'missing'))).toBe(false)
    expect((await readdir(fixture.home)).filter((f) => f.endsWith('.tmp'))).toEqual([])
  })

  it('says what is wrong with an unknown option', async () => {
    const r = await diagnostics('--zip')
    expect(r.code).toBe(2)
    expect(r.stderr).toBe('llama-tray: Unknown option --zip; this command takes --out, --json.\n')
  })
})
