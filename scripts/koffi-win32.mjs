#!/usr/bin/env node
// koffi's prebuilt Windows x64 binary (the npm package @koromix/koffi-win32-x64,
// the same version as koffi). npm installs it only on Windows (an optional
// dependency restricted to win32), so a Windows build made on another machine
// would lack it and the app would fail at its first Windows API call. This finds
// it, fetches it once into the build cache when absent (npm pack, no install),
// and stages it where koffi looks in a packaged app:
// <resources>/koffi/win32_x64/koffi.node (electron-builder.yml, win.extraResources).
// Run directly, it prints the binary's path.
import { spawnSync } from 'node:child_process'
import {
  closeSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { cacheRoot } from './llama-server-build.mjs'

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
export const KOFFI_WIN32_PACKAGE = '@koromix/koffi-win32-x64'
/** koffi's folder name for Windows x64 (`${process.platform}_${abi}`), inside the package and under resources/koffi. */
export const KOFFI_WIN32_TRIPLET = 'win32_x64'
/** Where `npm run package` stages it for electron-builder (out/ is build output, never committed). */
export const STAGED_DIR = join(REPO_ROOT, 'out', 'native', 'koffi')

export function koffiVersion(root = REPO_ROOT) {
  return JSON.parse(readFileSync(join(root, 'node_modules', 'koffi', 'package.json'), 'utf8')).version
}

/** The machine a PE image is built for ("x64", "x86", "arm64" or the hex code), and whether it is a DLL; null for anything else. */
export function peInfo(path) {
  const fd = openSync(path, 'r')
  try {
    const head = Buffer.alloc(4096)
    const n = readSync(fd, head, 0, head.length, 0)
    if (n < 64 || head.toString('latin1', 0, 2) !== 'MZ') return null
    const pe = head.readUInt32LE(0x3c)
    if (pe + 24 > n || head.toString('latin1', pe, pe + 4) !== 'PE\0\0') return null
    const code = head.readUInt16LE(pe + 4)
    const machine = { 0x8664: 'x64', 0x14c: 'x86', 0xaa64: 'arm64' }[code] ?? `0x${code.toString(16)}`
    return { machine, dll: (head.readUInt16LE(pe + 22) & 0x2000) !== 0 }
  } finally {
    closeSync(fd)
  }
}

function assertWin64Dll(path) {
  const info = peInfo(path)
  if (!info || info.machine !== 'x64' || !info.dll)
    throw new Error(`${path} is not a Windows x64 DLL (${info ? `${info.machine}${info.dll ? ' DLL' : ''}` : 'not a PE file'})`)
}

/** npm's own CLI script, run with this Node (no shell: npm is a .cmd file on Windows). */
function npmCli() {
  const candidates = [
    process.env.npm_execpath,
    join(dirname(process.execPath), 'node_modules', 'npm', 'bin', 'npm-cli.js'),
    join(dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js'),
  ]
  return candidates.find((c) => c && /npm-cli\.js$/.test(c) && existsSync(c)) ?? null
}

function run(cmd, args, cwd) {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', windowsHide: true })
  if (r.error) throw new Error(`${cmd}: ${r.error.message}`)
  if (r.status !== 0)
    throw new Error(`${cmd} ${args.join(' ')} exited with ${r.status}: ${(r.stderr || r.stdout).trim().split('\n').slice(-5).join('\n')}`)
  return r.stdout
}

/**
 * The folder of the npm package @koromix/koffi-win32-x64 at koffi's version (what a
 * Windows npm install puts in node_modules/@koromix/koffi-win32-x64): installed (on
 * Windows), else cached, else fetched into the cache with npm pack.
 */
export function ensureKoffiWin32Package({ root = REPO_ROOT } = {}) {
  const version = koffiVersion(root)
  const installed = join(root, 'node_modules', '@koromix', 'koffi-win32-x64')
  if (
    existsSync(join(installed, KOFFI_WIN32_TRIPLET, 'koffi.node')) &&
    JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')).version === version
  )
    return installed

  const cacheDir = join(cacheRoot(), `koffi-win32-x64-${version}`)
  if (existsSync(join(cacheDir, 'package.json')) && existsSync(join(cacheDir, KOFFI_WIN32_TRIPLET, 'koffi.node'))) return cacheDir

  const cli = npmCli()
  const work = mkdtempSync(join(tmpdir(), 'koffi-win32-'))
  try {
    const spec = `${KOFFI_WIN32_PACKAGE}@${version}`
    if (cli) run(process.execPath, [cli, 'pack', spec, '--silent', '--pack-destination', work], work)
    else run('npm', ['pack', spec, '--silent', '--pack-destination', work], work)
    const tarball = readdirSync(work).find((f) => f.endsWith('.tgz'))
    if (!tarball) throw new Error(`npm pack ${spec} wrote no tarball`)
    run('tar', ['-xzf', tarball], work)
    const extracted = join(work, 'package')
    assertWin64Dll(join(extracted, KOFFI_WIN32_TRIPLET, 'koffi.node'))
    mkdirSync(dirname(cacheDir), { recursive: true })
    try {
      renameSync(extracted, cacheDir)
    } catch (err) {
      // Another process cached it first: keep theirs.
      if (!existsSync(join(cacheDir, KOFFI_WIN32_TRIPLET, 'koffi.node'))) throw err
    }
    return cacheDir
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}

/** The path of koffi's Windows x64 binary (koffi.node, a DLL) inside that package. */
export function ensureKoffiWin32({ root = REPO_ROOT } = {}) {
  return join(ensureKoffiWin32Package({ root }), KOFFI_WIN32_TRIPLET, 'koffi.node')
}

/** Copies the binary to <dest>/win32_x64/koffi.node (electron-builder copies <dest> to resources/koffi); returns that path. */
export function stageKoffiWin32({ root = REPO_ROOT, dest = STAGED_DIR } = {}) {
  const source = ensureKoffiWin32({ root })
  assertWin64Dll(source)
  const target = join(dest, KOFFI_WIN32_TRIPLET, 'koffi.node')
  mkdirSync(dirname(target), { recursive: true })
  copyFileSync(source, target)
  return target
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    process.stdout.write(`${ensureKoffiWin32()}\n`)
  } catch (err) {
    process.stderr.write(`[koffi-win32] ${err.message}\n`)
    process.exit(1)
  }
}
