#!/usr/bin/env node
// The Debian packages the test suite needs, installed with apt-get when missing, so that `npm test`
// alone sets up a fresh machine (CI runs exactly that command). Run as a script it installs the
// suite's own list; other set-up scripts import ensureAptPackages for theirs.
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

/** Package → why the suite needs it. */
export const SUITE_PACKAGES = {
  cmake: 'builds the test llama-server',
  'g++': 'builds the test llama-server',
  make: 'builds the test llama-server',
  git: 'unpacks the llama.cpp source bundle',
  procps: 'tree-kill walks the process tree with ps',
  chromium: 'the dashboard tests run in Debian’s Chromium (never a downloaded browser)',
}

/** Package → why the Windows lane needs it (scripts/windows-lane.mjs; Linux x64 only). */
export const WINDOWS_LANE_PACKAGES = {
  wine: 'runs Windows Node and llama-server.exe',
  wine64: 'runs Windows Node and llama-server.exe',
  'g++-mingw-w64-x86-64-posix': 'cross-builds llama-server.exe',
  'gcc-mingw-w64-x86-64-posix': 'cross-builds llama-server.exe and Discord.exe',
}

function log(msg) {
  process.stderr.write(`[system-packages] ${msg}\n`)
}

function installed(pkg) {
  const r = spawnSync('dpkg-query', ['-W', '-f=${Status}', pkg], { encoding: 'utf8' })
  return r.status === 0 && r.stdout.includes('install ok installed')
}

/** Installs the packages of `wanted` (name → reason) that dpkg does not list; throws one clear line when it cannot. */
export function ensureAptPackages(wanted) {
  const missing = Object.keys(wanted).filter((p) => !installed(p))
  if (missing.length === 0) return []
  const apt = spawnSync('apt-get', ['--version'], { stdio: 'ignore' })
  const root = typeof process.getuid === 'function' && process.getuid() === 0
  if (apt.error || !root) {
    const why = missing.map((p) => `${p} (${wanted[p]})`).join(', ')
    throw new Error(`missing system packages: ${why}; install them with: sudo apt-get install ${missing.join(' ')}`)
  }
  log(`installing ${missing.join(' ')} with apt-get (once)`)
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  for (const args of [
    ['update', '-qq'],
    ['install', '-y', '-qq', '--no-install-recommends', ...missing],
  ]) {
    const r = spawnSync('apt-get', args, { env, stdio: ['ignore', 'ignore', 'inherit'] })
    if (r.status !== 0) throw new Error(`apt-get ${args.join(' ')} exited with ${r.status}`)
  }
  return missing
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  // --with-windows-lane: the lane's packages too, in the same apt-get call (npm test does this).
  const lane = process.argv.includes('--with-windows-lane') && process.platform === 'linux' && process.arch === 'x64'
  try {
    ensureAptPackages(lane ? { ...SUITE_PACKAGES, ...WINDOWS_LANE_PACKAGES } : SUITE_PACKAGES)
  } catch (err) {
    log(err.message)
    process.exit(1)
  }
}
