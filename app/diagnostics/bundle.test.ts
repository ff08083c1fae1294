import { rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ExitInfo, ServerStatus } from '../contract/server-state'
import { ProfileStore } from '../profiles/store'
import { readGpuInventory } from '../telemetry/gpu/inventory'
import { fakeSmiExe } from '../../test/support/telemetry/paths'
import { BUNDLE_ENTRIES, buildDiagnostics, bundleEntries, saveDiagnosticsZip, type DiagnosticsBundle } from './bundle'
import { DiagnosticsError } from './diagnostics-error'
import { readGpuOnce } from './gpu-once'
import { StateHistory } from './state-history'
import { SUMMARY_MAX_COLUMNS, SUMMARY_MAX_LINES } from './summary'
import { readZipTexts } from '../../test/support/diagnostics/read-zip'
import { makeSecretHome, SECRETS, USER, type SecretHome } from '../../test/support/diagnostics/secret-home'
import { serverStatus } from '../../test/helpers/server-status'

// The bundle of a home holding a key in every supported way (see test/support/diagnostics/secret-home.ts), built from real
// files, the fake nvidia-smi's H200 captures, and a state history; then written and read back with yauzl.
let fixture: SecretHome
let bundle: DiagnosticsBundle
let entries: Map<string, string>

const status = (state: ServerStatus['state'], lastExit: ExitInfo | null = null): ServerStatus =>
  serverStatus(state, {
    profileId: 'inline',
    exe: `/home/${USER}/llama.cpp/build/bin/llama-server`,
    restarts: 1,
    ...(lastExit ? { lastExit } : {}),
  })
const crash = {
  code: 1,
  signal: null,
  kind: 'crashed' as const,
  hint: null,
  problem: null,
  reason: `llama-server exited with code 1 (--api-key ${SECRETS.inline})`,
}

beforeAll(async () => {
  fixture = await makeSecretHome()
  const history = new StateHistory()
  const seen = [status('starting'), status('loading'), status('backoff', crash), status('starting', crash), status('ready', crash)]
  for (const s of seen) history.record(s)
  bundle = await buildDiagnostics({
    home: fixture.home,
    appVersion: '0.1.0',
    env: fixture.env,
    status: status('ready', crash),
    transitions: history.list(),
    gpu: () => readGpuOnce({ smiExe: fakeSmiExe, nvmlLibraries: [] }),
    inventory: () => readGpuInventory({ smiExe: fakeSmiExe }),
  })
  await saveDiagnosticsZip(join(fixture.home, 'bundle.zip'), bundle)
  entries = await readZipTexts(join(fixture.home, 'bundle.zip'))
}, 60_000)

afterAll(async () => {
  if (fixture) await rm(fixture.home, { recursive: true, force: true })
})

describe('the diagnostics bundle', () => {
  it('holds the summary, the report and the log tail', () => {
    expect([...entries.keys()]).toEqual([...BUNDLE_ENTRIES])
    expect(entries.get('summary.txt')).toBe(bundle.summary)
    expect(JSON.parse(entries.get('diagnostics.json') as string)).toEqual(bundle.report)
    expect(entries.get('llama-server.log')?.split('\n')).toHaveLength(13)
  })

  it.each(Object.entries(SECRETS))('contains the %s secret nowhere (every entry, and the summary)', (_name, secret) => {
    const texts: [string, string][] = [...entries, ['summary (copied)', bundle.summary]]
    for (const [name, text] of texts) {
      expect(text.includes(secret), `${secret} in ${name}`).toBe(false)
      // Not even half of it: a clipped line must not leak the start of a key.
      expect(text.includes(secret.slice(0, Math.ceil(secret.length / 2))), `half of ${secret} in ${name}`).toBe(false)
    }
  })

  it("contains the user's name nowhere, in Linux, macOS and Windows paths or alone", () => {
    for (const [name, text] of entries) expect(text.toLowerCase().includes(USER), `${USER} in ${name}`).toBe(false)
    expect(entries.get('diagnostics.json')).toContain('/home/<user>/llama.cpp/build/bin/llama-server')
    expect(entries.get('diagnostics.json')).toContain('C:\\\\Users\\\\<user>\\\\models\\\\qwen.gguf')
    expect(entries.get('llama-server.log')).toContain('loaded /Users/<user>/models/x.gguf for <user>')
  })

  it('keeps what a helper needs: the commands with their keys masked, states, GPU, versions, settings', () => {
    const report = bundle.report
    expect(report.profiles.activeProfileId).toBe(fixture.activeProfileId)
    expect(report.profiles.list.map((p) => p.id)).toEqual(['inline', 'joined', 'list', 'key-file', 'typed-setting', 'env', 'hf'])
    const command = (id: string): string => report.profiles.list.find((p) => p.id === id)?.command ?? ''
    const bin = '/home/<user>/llama.cpp/build/bin/llama-server'
    expect(command('inline')).toBe(`${bin} -m /home/<user>/models/qwen.gguf --api-key *** --n-cpu-moe 20`)
    expect(command('joined')).toMatch(/ --api-key=\*\*\*$/)
    expect(command('env')).toMatch(/^LLAMA_API_KEY=\*\*\* HF_TOKEN=\*\*\* /)
    expect(command('hf')).toContain('-hft ***')
    expect(command('key-file')).toContain(`--api-key-file ${join(fixture.home, 'keys.txt')}`)
    expect(report.server.transitions.map((t) => t.state)).toEqual(['starting', 'loading', 'backoff', 'starting', 'ready'])
    expect(report.server.transitions[2]?.exit).toBe('llama-server exited with code 1 (--api-key ***)')
    expect(report.versions).toMatchObject({ app: '0.1.0', node: process.versions.node, nvidiaDriver: '580.159.04', cuda: '13.0' })
    expect(report.gpu.reading?.devices[0]?.memoryTotalMiB).toBeGreaterThan(100_000)
    expect(entries.get('diagnostics.json')).not.toMatch(/GPU-[0-9a-f]{8}-/) // the GPU's UUID identifies the machine
    expect(report.settings.values.port).toBe(8081)
    expect(report.engine).toEqual({ binary: bin, error: `llama-server binary not found: ${bin}` })
    // Ordinary log lines are left alone.
    expect(entries.get('llama-server.log')).toContain("print_info: EOS token        = 151645 '<|im_end|>'")
  })

  it('sums up on one screen', () => {
    const lines = bundle.summary.trimEnd().split('\n')
    expect(lines.length).toBeLessThanOrEqual(SUMMARY_MAX_LINES)
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(SUMMARY_MAX_COLUMNS)
    expect(lines[1]).toMatch(/^App 0\.1\.0 · Node /)
    expect(bundle.summary).toContain('NVIDIA driver 580.159.04 · CUDA 13.0')
    expect(bundle.summary).toContain('Active profile: inline (inline)')
    expect(bundle.summary).toContain('Server: ready, profile inline, pid 4242, port 8081, 1 restarts')
  })

  it('refuses a path it cannot write with one sentence, and leaves nothing behind', async () => {
    const target = join(fixture.home, 'no-such-folder', 'bundle.zip')
    const error = await saveDiagnosticsZip(target, bundle).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(DiagnosticsError)
    expect((error as DiagnosticsError).message).toBe(
      `Cannot save the diagnostics to ${target} because its folder does not exist: choose another file or folder.`,
    )
    expect((error as DiagnosticsError).detail).toContain('ENOENT')
  })
})

describe('the diagnostics bundle with a pinned profile', () => {
  let pinned: SecretHome

  beforeAll(async () => {
    pinned = await makeSecretHome()
    await (await ProfileStore.open(pinned.home)).setPinned('hf', true)
    const log = [
      `[llama-tray] started /home/${USER}/llama.cpp/build/bin/llama-server -hft ${SECRETS.hfFlag} --port 41234 (pid 5151)`,
      `srv  operator(): Authorization: Bearer ${SECRETS.bearerOnly}`,
      '[llama-tray] llama-server was killed by SIGKILL; restarting in 1 s',
    ]
    await writeFile(join(pinned.home, 'logs', 'llama-server-hf.log'), `${log.join('\n')}\n`)
  })
  afterAll(async () => {
    if (pinned) await rm(pinned.home, { recursive: true, force: true })
  })

  it("carries the pinned server's log as its own entry, redacted, its state beside it and a line in the summary", async () => {
    const view = {
      profileId: 'hf',
      name: 'hf',
      state: 'ready' as const,
      port: 41234,
      pid: 5152,
      lastExit: null,
      restarts: 1,
      generation: null,
    }
    const withPinned = await buildDiagnostics({
      home: pinned.home,
      appVersion: '0.1.0',
      env: pinned.env,
      status: status('ready'),
      pinned: [view],
      transitions: [],
      gpu: async () => null,
      inventory: async () => ({ error: 'no nvidia-smi here' }),
    })
    const zip = join(pinned.home, 'pinned.zip')
    await saveDiagnosticsZip(zip, withPinned)
    const read = await readZipTexts(zip)
    expect(bundleEntries(withPinned)).toEqual([...BUNDLE_ENTRIES, 'llama-server-hf.log'])
    expect([...read.keys()]).toEqual(bundleEntries(withPinned))
    const log = read.get('llama-server-hf.log') as string
    expect(log.split('\n')).toHaveLength(4)
    expect(log).toContain('-hft *** --port 41234')
    for (const secret of [SECRETS.hfFlag, SECRETS.bearerOnly, USER]) expect(log.includes(secret), secret).toBe(false)
    expect(withPinned.report.pinned).toEqual([expect.objectContaining({ profileId: 'hf', server: view })])
    expect(withPinned.summary).toContain('Pinned hf: ready, pid 5152, 1 restarts (3 log lines in the bundle, last: llama-server was killed')
  })
})
