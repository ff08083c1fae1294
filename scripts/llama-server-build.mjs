#!/usr/bin/env node
// Builds a CPU llama-server from the llama.cpp source that the npm package
// node-llama-cpp ships as llama/gitRelease.bundle, and caches the binary under
// a folder keyed by that package's version. Prints the binary's path.
//
// Used by the test suite (integration tests need a real server) and by CI.
// Order of preference: $LLAMA_SERVER_BIN, then the cache, then a fresh build.
// A fresh build is cached only after it answered a completion on the tiny
// fixture model (scripts/llama-server-smoke.mjs).
import { spawnSync } from 'node:child_process'
import {
  chmodSync,
  closeSync,
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { homedir, tmpdir, cpus } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { BUILD_RECIPE, RECIPE_CMAKE_OPTIONS } from './llama-build-recipe.mjs'

// Pinned: its bundle is mainline "v0.5.0" (commit de3ff81), the build the
// captures in test/fixtures/llama-server were made with.
export const NODE_LLAMA_CPP_VERSION = '3.22.1'

export function cacheRoot() {
  return process.env.LLAMA_TRAY_BUILD_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'llama-tray')
}

// Not -march=native: on a VM whose CPU reports AMX without the kernel granting it, a native build
// died with SIGSEGV in its first matrix multiplication. A fixed instruction set (AVX2, FMA, F16C:
// any x86-64 machine of the last decade, and the laptops we build for) gives the same binary on every
// machine. The flavour is part of the cache key, so a binary built another way is never reused.
const ISA_FLAGS = process.arch === 'x64' ? ['-DGGML_AVX=ON', '-DGGML_AVX2=ON', '-DGGML_FMA=ON', '-DGGML_F16C=ON', '-DGGML_BMI2=ON'] : []
const FLAVOUR = process.arch === 'x64' ? 'cpu-avx2' : 'cpu-generic'

export function cachedBinaryPath() {
  const how = prebuiltPackage() ? `prebuilt-libs-${BUILD_RECIPE}-${CPU_BACKEND_BUILD}` : BUILD_RECIPE
  return join(cacheRoot(), `llama-server-node-llama-cpp-${NODE_LLAMA_CPP_VERSION}-${FLAVOUR}-${how}`, 'llama-server')
}

const SMOKE_MODEL = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'test', 'fixtures', 'models', 'tiny-target.gguf')

/** Runs the smoke test on a built binary; throws its one-line reason if the binary does not work here. */
function smokeTest(bin) {
  if (!existsSync(SMOKE_MODEL)) {
    log(`no smoke test: ${SMOKE_MODEL} is missing (restore it with git checkout -- test/fixtures/models)`)
    return
  }
  const script = join(dirname(fileURLToPath(import.meta.url)), 'llama-server-smoke.mjs')
  const r = spawnSync(process.execPath, [script, bin, SMOKE_MODEL], { encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'] })
  if (r.status !== 0)
    throw new Error(
      `the llama-server just built does not work on this machine, so it was not cached: ${(r.stderr ?? '').trim() || r.error?.message}`,
    )
}

export function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { stdio: ['ignore', 'inherit', 'inherit'], ...opts })
  if (r.error) throw new Error(`${cmd}: ${r.error.message}`)
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited with ${r.status}`)
}

/** Runs a noisy build step with its output in a log file; on failure the log's tail is printed. */
export function runLogged(cmd, args, logFile) {
  const fd = openSync(logFile, 'a')
  try {
    const r = spawnSync(cmd, args, { stdio: ['ignore', fd, fd] })
    if (r.error) throw new Error(`${cmd}: ${r.error.message}`)
    if (r.status !== 0) {
      const tail = readFileSync(logFile, 'utf8').split('\n').slice(-40).join('\n')
      throw new Error(`${cmd} ${args.join(' ')} exited with ${r.status}; last lines of ${logFile}:\n${tail}`)
    }
  } finally {
    closeSync(fd)
  }
}

function log(msg) {
  process.stderr.write(`[llama-server-build] ${msg}\n`)
}

/**
 * Unpacks the pinned llama.cpp source into `work`/llama.cpp and returns that
 * path. Shared with scripts/windows-lane.mjs, which cross-builds the same source.
 */
export function fetchLlamaSource(work, say = log) {
  say(`fetching node-llama-cpp@${NODE_LLAMA_CPP_VERSION} with npm pack`)
  run('npm', ['pack', `node-llama-cpp@${NODE_LLAMA_CPP_VERSION}`, '--silent'], { cwd: work, stdio: ['ignore', 'ignore', 'inherit'] })
  const tgz = readdirSync(work).find((f) => f.endsWith('.tgz'))
  if (!tgz) throw new Error('npm pack produced no tarball')
  run('tar', ['-xzf', tgz, 'package/llama/gitRelease.bundle'], { cwd: work })
  say('cloning the llama.cpp bundle')
  run('git', ['-c', 'advice.detachedHead=false', 'clone', '--quiet', join(work, 'package/llama/gitRelease.bundle'), 'llama.cpp'], {
    cwd: work,
  })
  return join(work, 'llama.cpp')
}

/** The prebuilt llama.cpp libraries of the same node-llama-cpp release, for this machine; null where none fits. */
function prebuiltPackage() {
  return process.platform === 'linux' && process.arch === 'x64' ? `@node-llama-cpp/linux-x64@${NODE_LLAMA_CPP_VERSION}` : null
}

// The server's own targets in the pinned source (tools/server, the multimodal library it links,
// the empty web UI, the hash helpers); everything else but the CPU backend comes prebuilt.
const SERVER_TARGETS = ['vendor-hash', 'mtmd', 'llama-ui', 'server-context', 'llama-server-impl', 'llama-server']
// ggml's CPU kernels as one library per instruction set, picked at run time; only the one for the
// fixed instruction set above is built, so every machine runs the same kernels.
const CPU_VARIANT = 'libggml-cpu-haswell.so'
const CPU_VARIANT_TARGETS = ['ggml-cpu-haswell', 'ggml-cpu-haswell-feats']
// The prebuilt CPU backend has no OpenMP: each context then runs its own pthread pool whose workers
// spin for a while after every graph (--poll 50), so with a draft model the target's workers spin
// while the draft's threads compute, and the draft ran 6-19 times slower than plain generation
// (measured: benchmarks/drafts.bench.ts). llama.cpp's releases are built with OpenMP (one thread
// team for both contexts), so the test build compiles this library as they do: OpenMP, -O3.
// Part of the cache key.
const CPU_BACKEND_BUILD = 'cpu-openmp'

/** `npm pack`s the prebuilt libraries into `work` and returns the folder holding them. */
function fetchPrebuiltLibs(work, spec) {
  log(`fetching ${spec} with npm pack`)
  const dir = join(work, 'prebuilt')
  mkdirSync(dir)
  run('npm', ['pack', spec, '--silent'], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] })
  const tgz = readdirSync(dir).find((f) => f.endsWith('.tgz'))
  if (!tgz) throw new Error(`npm pack ${spec} produced no tarball`)
  run('tar', ['-xzf', tgz], { cwd: dir })
  return join(dir, 'package', 'bins', 'linux-x64')
}

/** The compile commands of `targets` from CMake's compile_commands.json, as argument arrays. */
function compileCommands(build, targets) {
  const entries = JSON.parse(readFileSync(join(build, 'compile_commands.json'), 'utf8'))
  const picked = []
  for (const target of targets) {
    const mine = entries.filter((e) => e.command.includes(` -o CMakeFiles/${target}.dir/`))
    if (mine.length === 0) throw new Error(`the llama.cpp source has no target ${target}: update the build's target lists`)
    picked.push(...mine)
  }
  return picked.map((e) => {
    if (/["'\\]/.test(e.command)) throw new Error(`a compile command needs shell quoting, which this build does not parse: ${e.command}`)
    const argv = e.command.trim().split(/\s+/)
    return { dir: e.directory, argv, object: resolve(e.directory, argv[argv.indexOf('-o') + 1]) }
  })
}

/** Compiles the commands with `jobs` at a time (through a generated Makefile, so the script stays synchronous). */
function compileAll(commands, work, jobs, buildLog) {
  const rules = commands.map((c, i) => `o${i}:\n\tcd ${c.dir} && ${c.argv.join(' ')}\n`)
  const makefile = join(work, 'server-objects.mk')
  writeFileSync(makefile, `all: ${commands.map((_, i) => `o${i}`).join(' ')}\n${rules.join('')}.PHONY: all\n`)
  runLogged('make', ['-f', makefile, '-j', jobs], buildLog)
}

/**
 * Compiles only llama-server's own sources and its CPU backend, and links them against the prebuilt
 * libraries of the same release (ggml's base, llama and llama-common: most of the compile time of a
 * full build). Returns the staged folder: the binary with the libraries it loads, found through $ORIGIN.
 */
function buildAgainstPrebuilt(src, libs, work, buildLog, jobs) {
  const build = join(src, 'build')
  runLogged(
    'cmake',
    [
      '-S',
      src,
      '-B',
      build,
      ...RECIPE_CMAKE_OPTIONS,
      // As the prebuilt libraries were configured, so that the headers' definitions match.
      '-DBUILD_SHARED_LIBS=ON',
      '-DGGML_BACKEND_DL=ON',
      '-DGGML_CPU_ALL_VARIANTS=ON',
      '-DGGML_OPENMP=ON', // the CPU backend built here (CPU_BACKEND_BUILD)
      '-DCMAKE_EXPORT_COMPILE_COMMANDS=ON',
    ],
    buildLog,
  )
  runLogged('cmake', ['--build', build, '--target', 'llama-ui-assets'], buildLog)
  const commands = compileCommands(build, SERVER_TARGETS)
  // The kernels at -O3 as the prebuilt ones (the recipe's -O1 is for the server's own code).
  const cpu = compileCommands(build, CPU_VARIANT_TARGETS).map((c) => ({ ...c, argv: c.argv.map((a) => (a === '-O1' ? '-O3' : a)) }))
  if (!cpu.some((c) => c.argv.includes('-fopenmp'))) throw new Error('CMake found no OpenMP for the CPU backend (apt-get install g++)')
  log(`compiling ${commands.length} files of llama-server and ${cpu.length} of its CPU backend with ${jobs} jobs (about 2 min of CPU)`)
  compileAll([...commands, ...cpu], work, jobs, buildLog)
  const shared = readdirSync(libs).filter((f) => /\.so$/.test(f) && !f.startsWith('libggml-cpu-'))
  const out = join(work, 'staged')
  mkdirSync(out)
  const compiler = commands[0].argv[0]
  const link = ['-o', join(out, 'llama-server'), ...commands.map((c) => c.object), ...shared.map((f) => join(libs, f))]
  runLogged(compiler, [...link, '-pthread', '-Wl,-rpath,$ORIGIN'], buildLog)
  const cpuLink = ['-shared', '-fopenmp', '-o', join(out, CPU_VARIANT), ...cpu.map((c) => c.object), join(libs, 'libggml-base.so')]
  runLogged(compiler, [...cpuLink, '-Wl,-rpath,$ORIGIN'], buildLog)
  for (const f of shared) copyFileSync(join(libs, f), join(out, f))
  return out
}

/** A full build of the pinned source with the recipe (where no prebuilt libraries fit this machine). */
function buildWhole(src, work, buildLog, jobs) {
  const build = join(src, 'build')
  runLogged('cmake', ['-S', src, '-B', build, ...RECIPE_CMAKE_OPTIONS, '-DBUILD_SHARED_LIBS=OFF', ...ISA_FLAGS], buildLog)
  log(`building target llama-server with ${jobs} jobs (several minutes on 2 cores)`)
  runLogged('cmake', ['--build', build, '--target', 'llama-server', '-j', jobs], buildLog)
  const out = join(work, 'staged')
  mkdirSync(out)
  copyFileSync(join(build, 'bin', 'llama-server'), join(out, 'llama-server'))
  return out
}

function processAlive(pid) {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return err.code === 'EPERM'
  }
}

/**
 * One build per cache folder at a time: npm test builds while the unit tests run, and any test
 * that asks for the server then waits for that build instead of starting its own. The lock is a
 * folder holding the builder's pid; a lock whose builder is gone is taken over.
 */
function withBuildLock(target, build) {
  const lock = `${dirname(target)}.lock`
  mkdirSync(dirname(lock), { recursive: true })
  let said = false
  for (;;) {
    if (existsSync(target)) return target
    try {
      mkdirSync(lock)
      break
    } catch (err) {
      if (err.code !== 'EEXIST') throw err
    }
    let holder = 0
    try {
      holder = Number(readFileSync(join(lock, 'pid'), 'utf8'))
    } catch {
      // just created, its pid not written yet; or its builder died before writing it
      if (Date.now() - statSync(lock, { throwIfNoEntry: false })?.mtimeMs > 60_000) rmSync(lock, { recursive: true, force: true })
    }
    if (holder > 0 && !processAlive(holder)) {
      rmSync(lock, { recursive: true, force: true })
      continue
    }
    if (!said) log(`another build${holder > 0 ? ` (pid ${holder})` : ''} is making ${target}; waiting for it`)
    said = true
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2000)
  }
  try {
    writeFileSync(join(lock, 'pid'), String(process.pid))
    return existsSync(target) ? target : build()
  } finally {
    rmSync(lock, { recursive: true, force: true })
  }
}

export function ensureLlamaServer() {
  const fromEnv = process.env.LLAMA_SERVER_BIN
  if (fromEnv) {
    if (!existsSync(fromEnv)) throw new Error(`LLAMA_SERVER_BIN=${fromEnv} does not exist`)
    return resolve(fromEnv)
  }
  const target = cachedBinaryPath()
  if (existsSync(target)) return target
  return withBuildLock(target, () => buildAndCache(target))
}

function buildAndCache(target) {
  for (const tool of ['cmake', 'git', 'tar', 'make']) {
    const probe = spawnSync(tool, ['--version'], { stdio: 'ignore' })
    if (probe.error) throw new Error(`building llama-server needs ${tool} on PATH (apt-get install cmake g++ make git)`)
  }
  const work = mkdtempSync(join(tmpdir(), 'llama-server-build-'))
  try {
    const started = Date.now()
    const src = fetchLlamaSource(work)
    const buildLog = join(work, 'build.log')
    const jobs = String(Math.max(1, cpus().length))
    const spec = prebuiltPackage()
    log(`configuring (CPU only, ${FLAVOUR}, recipe ${BUILD_RECIPE}${spec ? ', against the prebuilt libraries' : ''})`)
    const staged = spec
      ? buildAgainstPrebuilt(src, fetchPrebuiltLibs(work, spec), work, buildLog, jobs)
      : buildWhole(src, work, buildLog, jobs)
    chmodSync(join(staged, 'llama-server'), 0o755)
    log('smoke test: the tiny model, ready, one completion')
    smokeTest(join(staged, 'llama-server'))
    // Renamed into place whole, so a half-copied folder is never cached.
    const dir = dirname(target)
    mkdirSync(dirname(dir), { recursive: true })
    const partial = `${dir}.partial-${process.pid}`
    rmSync(partial, { recursive: true, force: true })
    cpSync(staged, partial, { recursive: true })
    try {
      renameSync(partial, dir)
    } catch (err) {
      if (!existsSync(target)) throw err
      rmSync(partial, { recursive: true, force: true }) // another run finished it first
    }
    log(`cached ${target} (built in ${Math.round((Date.now() - started) / 1000)} s)`)
    return target
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    process.stdout.write(`${ensureLlamaServer()}\n`)
  } catch (err) {
    log(`error: ${err instanceof Error ? err.message : String(err)}`)
    process.exit(1)
  }
}
