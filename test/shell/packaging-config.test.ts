import { existsSync, readFileSync } from 'node:fs'
import { builtinModules, createRequire } from 'node:module'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { APP_ID, PRODUCT_NAME } from '../../main/app-identity'
import { REPO_ROOT } from '../helpers/paths'

// electron-builder cannot download Electron or NSIS here, so `npm run package`
// is not run in CI: this validates its configuration with electron-builder's
// own loader and schema, checks the icons it names, and the compiled bundle.
const require = createRequire(join(REPO_ROOT, 'package.json'))
const { getConfig, validateConfiguration } = require('app-builder-lib/out/util/config/config') as {
  getConfig(projectDir: string, configPath: string | null, fromOptions: null): Promise<Record<string, unknown>>
  validateConfiguration(config: Record<string, unknown>, logger: unknown): Promise<void>
}
const { DebugLogger } = require('builder-util') as { DebugLogger: new (enabled: boolean) => unknown }

type Target = { target: string; arch: string[] }
interface BuilderConfig {
  appId: string
  productName: string
  directories: { buildResources: string; output: string }
  files: (string | { filter: string[] })[]
  extraResources: { from: string; to: string }[]
  electronFuses: Record<string, boolean>
  win: { icon: string; target: Target[] }
  nsis: Record<string, unknown>
  portable: { artifactName: string }
  linux: { icon: string; target: Target[] }
  mac: { icon: string; target: Target[]; extendInfo: Record<string, unknown> }
}

async function loadConfig(): Promise<BuilderConfig> {
  return (await getConfig(REPO_ROOT, join(REPO_ROOT, 'electron-builder.yml'), null)) as unknown as BuilderConfig
}

const targets = (list: Target[]): string[] => list.flatMap((t) => t.arch.map((a) => `${t.target}/${a}`)).sort()

function pngSize(path: string): { width: number; height: number } {
  const png = readFileSync(path)
  expect(png.subarray(1, 4).toString('ascii')).toBe('PNG')
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) }
}

/** The sizes an .ico holds (0 in the directory means 256). */
export function icoSizes(path: string): number[] {
  const ico = readFileSync(path)
  expect([ico.readUInt16LE(0), ico.readUInt16LE(2)]).toEqual([0, 1])
  return Array.from({ length: ico.readUInt16LE(4) }, (_, i) => ico.readUInt8(6 + 16 * i) || 256)
}

describe('electron-builder.yml', () => {
  it("passes electron-builder's own schema", async () => {
    await expect(
      validateConfiguration((await loadConfig()) as unknown as Record<string, unknown>, new DebugLogger(false)),
    ).resolves.toBeUndefined()
  })

  it('names the app as main does (the AUMID toasts need)', async () => {
    const config = await loadConfig()
    expect(config.appId).toBe(APP_ID)
    expect(config.productName).toBe(PRODUCT_NAME)
  })

  it('builds NSIS per-user without admin and a portable exe for x64, AppImage and deb, and a dmg', async () => {
    const config = await loadConfig()
    expect(targets(config.win.target)).toEqual(['nsis/x64', 'portable/x64'])
    expect(config.nsis).toMatchObject({ oneClick: true, perMachine: false, allowElevation: false, createStartMenuShortcut: true })
    // Both Windows targets are .exe files: they need different names.
    expect(config.portable.artifactName).not.toBe(config.nsis.artifactName)
    expect(targets(config.linux.target)).toEqual(['AppImage/x64', 'deb/x64'])
    expect(targets(config.mac.target)).toEqual(['dmg/arm64', 'dmg/x64'])
    expect(config.mac.extendInfo.LSUIElement).toBe(true)
  })

  it('packages the compiled app and resources, not sources or the CLI', async () => {
    const filters = (await loadConfig()).files.flatMap((f) => (typeof f === 'string' ? [f] : f.filter))
    for (const needed of ['out/main/**', 'out/preload/**', 'out/renderer/**', 'resources/**']) expect(filters).toContain(needed)
    expect(filters.some((f) => /^(app|main|renderer|src)\//.test(f) || f.startsWith('out/**') || f.startsWith('out/cli'))).toBe(false)
  })

  it("ships the engine GPU check's tiny model outside the asar, where llama-server can read it", async () => {
    const config = await loadConfig()
    expect(config.extraResources).toContainEqual({ from: 'resources/engine-check', to: 'engine-check' })
    expect(config.files.flatMap((f) => (typeof f === 'string' ? [f] : f.filter))).toContain('!resources/engine-check/**')
    expect(existsSync(join(REPO_ROOT, 'resources', 'engine-check', 'tiny-check.gguf'))).toBe(true)
  })

  it('flips the security fuses', async () => {
    expect((await loadConfig()).electronFuses).toMatchObject({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
    })
  })

  it('has every icon it names: a 256 px .ico for Windows, a 512 px PNG for Linux and macOS', async () => {
    const config = await loadConfig()
    expect(config.directories.buildResources).toBe('build')
    expect(icoSizes(join(REPO_ROOT, config.win.icon))).toEqual([16, 24, 32, 48, 64, 128, 256])
    for (const icon of [config.linux.icon, config.mac.icon]) expect(pngSize(join(REPO_ROOT, icon))).toEqual({ width: 512, height: 512 })
  })
})

describe('compiled bundle (npm run build)', () => {
  const mainBundle = join(REPO_ROOT, 'out', 'main', 'index.js')
  const preloadBundle = join(REPO_ROOT, 'out', 'preload', 'index.js')

  it('exists where package.json "main" points', () => {
    const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { main: string }
    expect(join(REPO_ROOT, pkg.main)).toBe(mainBundle)
    expect(existsSync(mainBundle), 'out/main/index.js (run npm run build)').toBe(true)
  })

  it('main requires only Node built-ins, electron and production dependencies (nothing that is not packaged)', () => {
    const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }
    const required = [...readFileSync(mainBundle, 'utf8').matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1]!)
    const packageName = (spec: string) => (spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!)
    const outside = required.filter(
      (spec) =>
        !spec.startsWith('node:') && !builtinModules.includes(spec) && spec !== 'electron' && !(packageName(spec) in pkg.dependencies),
    )
    expect(required).toContain('electron')
    expect(outside).toEqual([])
  })

  it('the preload is one CommonJS file that requires nothing but electron (a sandboxed preload cannot)', () => {
    const preload = readFileSync(preloadBundle, 'utf8')
    expect([...preload.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1])).toEqual(['electron'])
    expect(preload).not.toMatch(/^\s*import\s/m)
    expect(preload).toContain('exposeInMainWorld')
  })
})
