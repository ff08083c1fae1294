import { execFile } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../helpers/paths'

// A Windows build made on Linux must still carry koffi's Windows binary (npm
// installs @koromix/koffi-win32-x64 only on Windows). electron-builder cannot
// run here (no Electron, no NSIS), so this checks its configuration, the hook
// that stages the binary, and, with koffi's own loader, that a packaged app on
// Windows loads the staged file from its resources folder.
const require = createRequire(join(REPO_ROOT, 'package.json'))
const { getConfig } = require('app-builder-lib/out/util/config/config') as {
  getConfig(projectDir: string, configPath: string | null, fromOptions: null): Promise<Record<string, unknown>>
}
const run = promisify(execFile)

interface Koffi {
  KOFFI_WIN32_TRIPLET: string
  STAGED_DIR: string
  koffiVersion(): string
  peInfo(path: string): { machine: string; dll: boolean } | null
  ensureKoffiWin32(): string
  ensureKoffiWin32Package(): string
  stageKoffiWin32(options?: { dest?: string }): string
}
const koffi = (await import(join(REPO_ROOT, 'scripts', 'koffi-win32.mjs'))) as Koffi
const { beforePack } = (await import(join(REPO_ROOT, 'scripts', 'electron-builder-before-pack.mjs'))) as {
  beforePack: (context: { electronPlatformName: string; arch: number }) => Promise<void>
}

const tmp = mkdtempSync(join(tmpdir(), 'llama-tray-koffi-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

interface Config {
  asarUnpack: string[]
  beforePack: string
  files: (string | { filter: string[] })[]
  win: { extraResources: { from: string; to: string; filter: string[] }[] }
}
const loadConfig = async (): Promise<Config> =>
  (await getConfig(REPO_ROOT, join(REPO_ROOT, 'electron-builder.yml'), null)) as unknown as Config

/** Requires a copy of koffi (without its platform packages beside it) as a packaged app would, with `platform` pretended. */
async function loadKoffi(resources: string, platform: NodeJS.Platform): Promise<string> {
  const app = join(tmp, `app-${platform}`)
  if (!existsSync(app)) cpSync(join(REPO_ROOT, 'node_modules', 'koffi'), join(app, 'node_modules', 'koffi'), { recursive: true })
  const script =
    `Object.defineProperty(process, 'platform', { value: ${JSON.stringify(platform)} }); process.resourcesPath = ${JSON.stringify(resources)}
try { const k = require(${JSON.stringify(join(app, 'node_modules', 'koffi'))}); console.log('loaded ' + k.sizeof('int')) } ` +
    `catch (e) { console.log('error ' + e.message) }`
  return (await run(process.execPath, ['-e', script], { cwd: tmp })).stdout.trim()
}

describe("koffi's Windows binary in a Windows build", () => {
  it('electron-builder copies the staged binary to <resources>/koffi/win32_x64 and unpacks every .node file from the asar', async () => {
    const config = await loadConfig()
    expect(config.asarUnpack).toContain('**/*.node')
    expect(config.win.extraResources).toEqual([
      { from: 'out/native/koffi', to: 'koffi', filter: [`${koffi.KOFFI_WIN32_TRIPLET}/koffi.node`] },
    ])
    expect(resolve(REPO_ROOT, config.win.extraResources[0]!.from)).toBe(koffi.STAGED_DIR)
    expect(resolve(REPO_ROOT, config.beforePack)).toBe(join(REPO_ROOT, 'scripts', 'electron-builder-before-pack.mjs'))
    // The hook as electron-builder resolves it (its own resolver: the export named after the hook).
    const { resolveFunction } = require('app-builder-lib/out/util/resolve') as {
      resolveFunction(type: string | undefined, executor: string, name: string, root: string): Promise<unknown>
    }
    const hook = await resolveFunction(undefined, config.beforePack, 'beforePack', REPO_ROOT)
    expect([typeof hook, (hook as { name?: string }).name]).toEqual(['function', 'beforePack'])
    // koffi itself (its JavaScript) is packaged with the production node_modules: nothing excludes it.
    expect(
      config.files.flatMap((f) => (typeof f === 'string' ? [f] : f.filter)).filter((f) => f.startsWith('!') && f.includes('koffi')),
    ).toEqual([])
  })

  it("the hook stages koffi's own version for a Windows x64 build: a Windows x64 DLL", async () => {
    const staged = join(koffi.STAGED_DIR, koffi.KOFFI_WIN32_TRIPLET, 'koffi.node')
    rmSync(staged, { force: true })
    await beforePack({ electronPlatformName: 'linux', arch: 1 })
    expect(existsSync(staged)).toBe(false)
    await beforePack({ electronPlatformName: 'win32', arch: 1 })
    expect(koffi.peInfo(staged)).toEqual({ machine: 'x64', dll: true })
    expect(readFileSync(staged).equals(readFileSync(koffi.ensureKoffiWin32()))).toBe(true)
    // The whole package, as a Windows npm install has it (the Windows test lane can stage it into node_modules).
    const pkg = JSON.parse(readFileSync(join(koffi.ensureKoffiWin32Package(), 'package.json'), 'utf8')) as {
      name: string
      version: string
      os: string[]
    }
    expect(pkg).toMatchObject({ name: '@koromix/koffi-win32-x64', version: koffi.koffiVersion(), os: ['win32'] })
    expect(koffi.ensureKoffiWin32()).toBe(join(koffi.ensureKoffiWin32Package(), 'win32_x64', 'koffi.node'))
    await expect(beforePack({ electronPlatformName: 'win32', arch: 3 })).rejects.toThrow(/x64 only/)
  })

  it('the Linux binary is not a Windows DLL (the check means something)', () => {
    expect(koffi.peInfo(join(REPO_ROOT, 'node_modules', '@koromix', 'koffi-linux-x64', 'linux_x64', 'koffi.node'))).toBeNull()
  })

  it("koffi on Windows loads exactly <resources>/koffi/win32_x64/koffi.node when its platform package is absent (the packaged app's case)", async () => {
    const resources = join(tmp, 'resources-win')
    koffi.stageKoffiWin32({ dest: join(resources, 'koffi') })
    // On Linux the Windows DLL cannot be loaded, but the loader's error names the file it chose.
    expect(await loadKoffi(resources, 'win32')).toBe(`error ${join(resources, 'koffi', 'win32_x64', 'koffi.node')}: invalid ELF header`)
    expect(await loadKoffi(join(tmp, 'empty'), 'win32')).toMatch(/^error Cannot find the native Koffi module/)
  })

  it('the same loader path works end to end with a binary this machine can load', async () => {
    const resources = join(tmp, 'resources-linux')
    mkdirSync(join(resources, 'koffi', 'linux_x64'), { recursive: true })
    cpSync(
      join(REPO_ROOT, 'node_modules', '@koromix', 'koffi-linux-x64', 'linux_x64', 'koffi.node'),
      join(resources, 'koffi', 'linux_x64', 'koffi.node'),
    )
    expect(await loadKoffi(resources, 'linux')).toBe('loaded 4')
  })
})
