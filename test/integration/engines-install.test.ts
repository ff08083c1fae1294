import { appendFileSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { installEngine } from '../../app/engines/install'
import { ReleaseClient } from '../../app/engines/release-client'
import { runCli, startCli } from '../helpers/cli'
import { llamaServerBin, llamaServerReleaseFiles } from '../helpers/llama-server-bin'
import { formatCommandLine } from '../../app/lib/command-line'
import { model } from '../helpers/paths'
import { isRunning, waitUntil } from '../helpers/processes'
import { SupervisorHarness } from '../helpers/supervisor-harness'
import { GitHubReleasesStandIn } from '../stand-ins/github-releases'
import { HfHubStandIn, startTinyHub } from '../stand-ins/hf-hub'
import { linuxTarGz } from '../stand-ins/release-archives'

// A release of the real llama-server (the cached test build, statically linked
// against ggml: `ldd` shows only libc, libstdc++, libgomp), packed as
// llama.cpp's Linux tarball, served by the GitHub stand-in.
const TAG = 'v0.5.0'
let gh: GitHubReleasesStandIn
let hub: HfHubStandIn
const homes: string[] = []
const newHome = (): string => {
  const h = mkdtempSync(join(tmpdir(), 'llama-tray-engines-'))
  homes.push(h)
  return h
}

beforeAll(async () => {
  const tarball = await linuxTarGz(TAG, llamaServerReleaseFiles())
  gh = await new GitHubReleasesStandIn().start([
    { tag: TAG, publishedAt: '2026-11-28T12:00:00Z', assets: [{ name: `llama-${TAG}-bin-ubuntu-x64.tar.gz`, body: tarball }] },
  ])
  hub = await startTinyHub()
}, 900_000)
afterAll(async () => {
  await gh.close()
  await hub.close()
  for (const h of homes) rmSync(h, { recursive: true, force: true })
})

describe('an engine installed from the release tarball (real llama-server)', () => {
  it('passes the engine detection and runs a fixture model to ready', async () => {
    const home = newHome()
    const engine = await installEngine({
      home,
      client: new ReleaseClient({ apiUrl: gh.apiUrl }),
      backend: 'auto',
      platform: 'linux',
      arch: 'x64',
      driver: async () => null,
    })
    expect(engine).toMatchObject({ id: `${TAG}-cpu`, backend: 'cpu', path: join(home, 'engines', `${TAG}-cpu`, 'llama-server') })
    expect(engine.version).not.toBeNull()
    const h = new SupervisorHarness()
    try {
      const status = await h.supervisor.start({
        profileId: 'installed',
        exe: engine.path,
        args: ['-m', model('tiny-target.gguf'), '-c', '2048', '-np', '1', '-t', '1'],
      })
      expect(status.state, h.states.join(' → ')).toBe('ready')
    } finally {
      await h.dispose()
    }
  })

  it('from an empty home, the CLI: engines install --json, a profile on it, list shows the use, remove refuses it, run reaches ready', async () => {
    const home = newHome()
    const env = { GITHUB_API_URL: gh.apiUrl, GITHUB_TOKEN: '' }
    const installed = await runCli(['--home', home, 'engines', 'install', '--json'], env)
    expect(installed.code, installed.stderr).toBe(0)
    const info = JSON.parse(installed.stdout) as Record<string, unknown>
    expect(Object.keys(info).sort()).toEqual(['backend', 'id', 'path', 'tag', 'version'])
    expect(info).toMatchObject({ id: `${TAG}-cpu`, tag: TAG, backend: 'cpu', path: join(home, 'engines', `${TAG}-cpu`, 'llama-server') })
    expect(installed.stderr).toContain(`Downloading llama-${TAG}-bin-ubuntu-x64.tar.gz`)

    const imported = await runCli([
      '--home',
      home,
      'profiles',
      'import',
      '--name',
      'tiny',
      '--',
      info.path as string,
      '-m',
      model('tiny-target.gguf'),
      '-c',
      '2048',
      '-np',
      '1',
      '-t',
      '1',
    ])
    expect(imported.code, imported.stderr).toBe(0)
    const listed = JSON.parse((await runCli(['--home', home, 'engines', 'list', '--json'])).stdout) as {
      installed: { id: string; usedBy: { name: string }[] }[]
    }
    expect(listed.installed.map((e) => [e.id, e.usedBy.map((p) => p.name)])).toEqual([[`${TAG}-cpu`, ['tiny']]])
    const refused = await runCli(['--home', home, 'engines', 'remove', `${TAG}-cpu`])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toBe(
      `llama-tray: ${TAG}-cpu is used by the profile "tiny": point it at another engine first, or remove it anyway with --force.\n`,
    )

    const cli = startCli(['--home', home, 'run', 'tiny', '--json', '--interval', '200'])
    await waitUntil(() => cli.stdoutLines.some((l) => l.includes('"state":"ready"')), 60_000, 'ready')
    const pid = (JSON.parse(cli.stdoutLines.find((l) => l.includes('"state":"ready"')) as string) as { server: { pid: number } }).server.pid
    cli.child.kill('SIGINT')
    expect((await cli.done).code).toBe(0)
    expect(isRunning(pid)).toBe(false)
  })

  it('from an empty home, the CLI: engines install, models pull, then run reaches ready', async () => {
    const home = newHome()
    const env = { GITHUB_API_URL: gh.apiUrl, GITHUB_TOKEN: '', HF_ENDPOINT: hub.origin, HF_HUB_CACHE: join(home, 'hf-hub') }
    const installed = await runCli(['--home', home, 'engines', 'install', '--json'], env)
    expect(installed.code, installed.stderr).toBe(0)
    const engine = JSON.parse(installed.stdout) as { path: string }
    const pulled = await runCli(['--home', home, 'models', 'pull', 'test-org/Tiny-GGUF:Q4_K_M', '--json'], env)
    expect(pulled.code, pulled.stderr).toBe(0)
    const modelFile = (JSON.parse(pulled.stdout) as { path: string }).path
    const cli = startCli(
      [
        '--home',
        home,
        'run',
        '--cmd',
        formatCommandLine([engine.path, '-m', modelFile, '-c', '2048', '-np', '1', '-t', '1']),
        '--json',
        '--interval',
        '200',
      ],
      env,
    )
    await waitUntil(() => cli.stdoutLines.some((l) => l.includes('"state":"ready"')), 60_000, 'ready')
    cli.child.kill('SIGINT')
    expect((await cli.done).code).toBe(0)
  })

  it('engines verify: checks the GPU again and the files against their install hashes; a changed byte fails it', async () => {
    const home = newHome()
    const installed = await runCli(['--home', home, 'engines', 'install', '--json'], { GITHUB_API_URL: gh.apiUrl, GITHUB_TOKEN: '' })
    expect(installed.code, installed.stderr).toBe(0)
    expect(installed.stderr).toContain('Checking that llama-server computes on this GPU')
    const fine = await runCli(['--home', home, 'engines', 'verify'])
    expect(fine.code, fine.stderr).toBe(0)
    // The release holds the binary and the libraries it loads (one file where LLAMA_SERVER_BIN is a static build).
    const files = llamaServerReleaseFiles().length
    const match = files === 1 ? 'its one file matches the hash' : `its ${files} files match the hashes`
    expect(fine.stdout).toBe(`${TAG}-cpu: ${match} recorded at install; the GPU check passed.\n`)
    // Bytes after the end of an ELF file change its hash, not how it runs.
    appendFileSync((JSON.parse(installed.stdout) as { path: string }).path, 'patched')
    const changed = await runCli(['--home', home, 'engines', 'verify', `${TAG}-cpu`, '--json'])
    expect(changed.code).toBe(1)
    const [row] = JSON.parse(changed.stdout) as { id: string; ok: boolean; files: unknown; gpuCheck: unknown }[]
    expect(row).toMatchObject({ id: `${TAG}-cpu`, ok: false, files: { state: 'changed', changed: ['llama-server'], missing: [] } })
    expect(row?.gpuCheck).toEqual({ ok: true })
    const unknown = await runCli(['--home', home, 'engines', 'verify', 'b1-cpu'])
    expect(unknown.code).toBe(2)
    const said = `No installed engine is called "b1-cpu" (installed: ${TAG}-cpu): see llama-tray engines list.`
    expect(unknown.stderr).toBe(`llama-tray: ${said}\n`)
  })

  it('the bare `engines <binary>` of before still detects a binary', async () => {
    const home = newHome()
    const r = await runCli(['--home', home, 'engines', llamaServerBin()])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toMatch(/: mainline/)
    const d = await runCli(['--home', home, 'engines', 'detect', llamaServerBin(), '--json'])
    expect((JSON.parse(d.stdout) as { kind: string }[])[0]?.kind).toBe('mainline')
  })
})
