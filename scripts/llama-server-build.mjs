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
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
} from 'node:fs'
import { homedir, tmpdir, cpus } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

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
  return join(cacheRoot(), `llama-server-node-llama-cpp-${NODE_LLAMA_CPP_VERSION}-${FLAVOUR}`, 'llama-server')
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

export function ensureLlamaServer() {
  const fromEnv = process.env.LLAMA_SERVER_BIN
  if (fromEnv) {
    if (!existsSync(fromEnv)) throw new Error(`LLAMA_SERVER_BIN=${fromEnv} does not exist`)
    return resolve(fromEnv)
  }
  const target = cachedBinaryPath()
  if (existsSync(target)) return target

  for (const tool of ['cmake', 'git', 'tar']) {
    const probe = spawnSync(tool, ['--version'], { stdio: 'ignore' })
    if (probe.error) throw new Error(`building llama-server needs ${tool} on PATH (apt-get install cmake g++ git)`)
  }
  const work = mkdtempSync(join(tmpdir(), 'llama-server-build-'))
  try {
    const src = fetchLlamaSource(work)
    const build = join(src, 'build')
    log(`configuring (CPU only, ${FLAVOUR}, no curl)`)
    const buildLog = join(work, 'build.log')
    runLogged(
      'cmake',
      [
        '-S',
        src,
        '-B',
        build,
        '-DCMAKE_BUILD_TYPE=Release',
        '-DLLAMA_CURL=OFF',
        '-DLLAMA_OPENSSL=OFF',
        '-DGGML_CUDA=OFF',
        '-DGGML_METAL=OFF',
        '-DGGML_VULKAN=OFF',
        '-DBUILD_SHARED_LIBS=OFF',
        '-DGGML_NATIVE=OFF',
        ...ISA_FLAGS,
        '-DLLAMA_BUILD_TESTS=OFF',
        '-DLLAMA_BUILD_EXAMPLES=OFF',
      ],
      buildLog,
    )
    const jobs = String(Math.max(1, cpus().length))
    log(`building target llama-server with ${jobs} jobs (several minutes on 2 cores)`)
    runLogged('cmake', ['--build', build, '--target', 'llama-server', '-j', jobs], buildLog)
    const built = join(build, 'bin', 'llama-server')
    if (!existsSync(built)) throw new Error(`build finished but ${built} is missing`)
    log('smoke test: the tiny model, ready, one completion')
    smokeTest(built)
    const dir = join(target, '..')
    mkdirSync(dir, { recursive: true })
    // Copy next to the target and rename, so a half-copied binary is never cached.
    const partial = `${target}.partial-${process.pid}`
    copyFileSync(built, partial)
    chmodSync(partial, 0o755)
    renameSync(partial, target)
    log(`cached ${target}`)
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
