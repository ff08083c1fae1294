#!/usr/bin/env node
// `npm test`: sets up what a fresh machine lacks and runs every check. The slow set-up (Debian
// packages, the llama-server build, the Windows lane's cross-build) overlaps with the checks that
// do not need it, so a first run costs little more than a warm one:
//
//   Debian packages (apt: mostly downloads)  ∥  (type check ∥ lint) → build
//   llama-server build                       ∥  the unit tests
//   the real-server tests (a real llama-server, Chromium)  ∥  the Windows lane's tests, once its set-up is done
//
// The Windows lane's set-up (a mingw-w64 cross-build of llama-server.exe on a first run) runs in
// the background from the end of the apt step: at the lowest CPU priority while the checks and
// unit tests keep both cores busy, then at an equal share beside the real-server tests, which
// mostly wait. On a warm machine it is ready at once and its tests run beside the other
// real-server tests, as one vitest run.
import { spawn } from 'node:child_process'
import { existsSync, writeFileSync } from 'node:fs'
import { setPriority } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { failureLines, withJsonReport } from './test-failures.mjs'

const repo = join(dirname(fileURLToPath(import.meta.url)), '..')
const WINDOWS_TESTS = 'test/windows/'
const started = Date.now()
/** Background steps still running: stopped with their whole process group if npm test ends first. */
const background = new Set()
/** vitest steps that failed, with their JSON reports: listed again at the end. */
const failedSteps = []

function say(msg) {
  process.stderr.write(`[test] ${msg} (${Math.round((Date.now() - started) / 1000)} s)\n`)
}

/** Runs one step with its output on ours; resolves to its exit code. Steps `inBackground` get the lowest CPU priority. */
function step(name, cmd, args, { inBackground = false } = {}) {
  say(`${name}: started`)
  const child = spawn(cmd, args, { cwd: repo, stdio: ['ignore', 'inherit', 'inherit'], windowsHide: true, detached: inBackground })
  if (inBackground && child.pid !== undefined) {
    background.add(child.pid)
    child.on('close', () => background.delete(child.pid))
    try {
      setPriority(child.pid, 19)
      // Detached, it leads a new session, and Linux gives each session its own scheduling group
      // (autogroup): nice 19 inside its group would still leave it half the CPU against the tests'
      // group. Lowering the group's own weight is what makes it take only the CPU the tests leave.
      if (existsSync(`/proc/${child.pid}/autogroup`)) writeFileSync(`/proc/${child.pid}/autogroup`, '19')
    } catch {
      // not allowed here: it then competes with the tests as an equal, which is slower but correct
    }
  }
  return new Promise((resolve) => {
    child.on('error', (err) => {
      say(`${name}: could not start (${err.message})`)
      resolve(1)
    })
    child.on('close', (code, signal) => {
      say(`${name}: ${code === 0 ? 'done' : `failed (${signal ?? `exit ${code}`})`}`)
      resolve(code ?? 1)
    })
  })
}

async function main() {
  const apt = step('Debian packages', process.execPath, ['scripts/system-packages.mjs', '--with-windows-lane'])
  // The type check and lint each keep one core busy: side by side they take the time of the longer.
  const checking = Promise.all([step('type check', 'npm', ['run', 'typecheck']), step('lint', 'npm', ['run', 'lint'])]).then(
    ([typecheck, lint]) => (typecheck !== 0 || lint !== 0 ? 1 : step('build', 'npm', ['run', 'build'])),
  )
  if ((await apt) !== 0) {
    await checking
    return 1
  }
  // From here on it takes what CPU the checks and tests leave idle. It does not need the build: the built CLI is
  // staged into its Wine prefix (stageLane) just before its tests.
  let laneDone = false
  const lane = step('Windows lane set-up', process.execPath, ['scripts/windows-lane.mjs', '--setup-only'], {
    inBackground: true,
  }).then((code) => {
    laneDone = true
    return code
  })
  const stageLane = () => step('Windows lane staging', process.execPath, ['scripts/windows-lane.mjs'])
  if ((await checking) !== 0) return 1
  const server = step('llama-server', process.execPath, ['scripts/llama-server-build.mjs'])
  const unit = await vitestStep('unit tests', ['--project', 'unit'])
  if ((await server) !== 0) return 1
  // The real-server tests spend most of their time waiting for servers and Chromium: from here on the
  // lane's set-up gets an equal share of the CPU, and its tests start as soon as it is ready, beside them.
  raiseBackground()

  const laneNow = laneDone && (await lane) === 0 && (await stageLane()) === 0
  const windows = laneNow
    ? Promise.resolve(0)
    : lane.then(async (code) => {
        if (code !== 0 || (await stageLane()) !== 0) return 1
        return vitestStep('Windows lane tests', ['--project', 'real-server', WINDOWS_TESTS])
      })
  const real = await vitestStep('real-server tests', ['--project', 'real-server', ...(laneNow ? [] : ['--exclude', `${WINDOWS_TESTS}**`])])
  if (!laneDone) say('waiting for the Windows lane set-up')
  return unit !== 0 || real !== 0 || (await windows) !== 0 ? 1 : 0
}

/** A vitest run as a step; if it fails, what failed is said again at the very end. */
async function vitestStep(name, args) {
  const report = join(repo, 'out', 'test-results', `${name.replaceAll(' ', '-')}.json`)
  const code = await step(name, 'npx', ['vitest', 'run', ...args, ...withJsonReport(report)])
  if (code !== 0) failedSteps.push({ name, report })
  return code
}

/** Gives the background steps the same CPU weight as the tests (see step()). */
function raiseBackground() {
  for (const pid of background) {
    try {
      if (existsSync(`/proc/${pid}/autogroup`)) writeFileSync(`/proc/${pid}/autogroup`, '0')
    } catch {
      // not allowed, or already gone: it keeps the CPU the tests leave idle
    }
  }
}

/** Stops the background steps with their compilers (their own process group: Ctrl-C does not reach them). */
function stopBackground() {
  for (const pid of background) {
    try {
      process.kill(-pid, 'SIGTERM')
    } catch {
      // already gone
    }
  }
}
process.on('SIGINT', () => {
  stopBackground()
  process.exit(130)
})

const code = await main()
stopBackground()
for (const { name, report } of failedSteps) {
  say(`${name} failed:`)
  for (const line of failureLines(report)) process.stderr.write(`  ${line}\n`)
}
say(code === 0 ? 'all passed' : 'failed: see the step above that says so')
process.exit(code)
