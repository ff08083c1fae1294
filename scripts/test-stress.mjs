#!/usr/bin/env node
// `npm run test:stress [-- --runs N] [--hog-only | --idle-only] [--filter <vitest filter>]`
//
// Runs the test suite N times on an idle machine and N times with one core kept busy by another
// process (`yes > /dev/null`, as a user's Discord or browser would), alternating, and prints the pass
// counts, wall times and the slowest tests. Builds once first (the suite's tests read out/).
import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const argv = process.argv.slice(2)
const flag = (name) => argv.includes(name)
const value = (name, fallback) => {
  const i = argv.indexOf(name)
  return i >= 0 && i + 1 < argv.length ? argv[i + 1] : fallback
}
const runs = Number(value('--runs', '3'))
const modes = flag('--hog-only') ? ['hog'] : flag('--idle-only') ? ['idle'] : ['idle', 'hog']
const filter = value('--filter', null)
const vitest = join('node_modules', 'vitest', 'vitest.mjs')
const work = mkdtempSync(join(tmpdir(), 'llama-tray-stress-'))

function step(cmd, args) {
  const r = spawnSync(cmd, args, { stdio: 'inherit' })
  if (r.status !== 0) {
    process.stderr.write(`stress: ${cmd} ${args.join(' ')} failed\n`)
    process.exit(1)
  }
}

/** One core kept busy: `yes` writing into /dev/null, killed when the run ends. */
function startHog() {
  const devNull = openSync('/dev/null', 'w')
  return spawn('yes', [], { stdio: ['ignore', devNull, 'ignore'] })
}

function runSuite(n, mode) {
  const report = join(work, `run-${n}-${mode}.json`)
  const hog = mode === 'hog' ? startHog() : null
  const started = Date.now()
  const args = [vitest, 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`]
  if (filter) args.push(filter)
  // The fuzzers (test/fuzz) try 200 inputs each in npm test; a stress run tries many more.
  const r = spawnSync(process.execPath, args, {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, FUZZ_RUNS: process.env.FUZZ_RUNS ?? '5000' },
  })
  hog?.kill('SIGKILL')
  const wallS = (Date.now() - started) / 1000
  let json = null
  try {
    json = JSON.parse(readFileSync(report, 'utf8'))
  } catch {
    // no report: the runner itself failed
  }
  const tests = (json?.testResults ?? []).flatMap((file) =>
    (file.assertionResults ?? []).map((t) => ({
      file: file.name.replace(`${process.cwd()}/`, ''),
      name: t.fullName ?? t.title,
      status: t.status,
      ms: t.duration ?? 0,
    })),
  )
  // A file that fails to load has no test results of its own: count it as one failure.
  const brokenFiles = (json?.testResults ?? []).filter(
    (file) => file.status === 'failed' && !(file.assertionResults ?? []).some((t) => t.status === 'failed'),
  )
  const failed = [
    ...tests.filter((t) => t.status === 'failed'),
    ...brokenFiles.map((file) => ({
      file: file.name.replace(`${process.cwd()}/`, ''),
      name: `(the file failed: ${(file.message ?? '').split('\n')[0]})`,
      status: 'failed',
      ms: 0,
    })),
  ]
  return { n, mode, ok: r.status === 0, wallS, passed: tests.filter((t) => t.status === 'passed').length, failed, tests }
}

// What `npm test` does before vitest: the build, and staging it into the Windows lane's prefix.
step('npm', ['run', 'build', '--silent'])
step(process.execPath, ['scripts/windows-lane.mjs'])
const results = []
for (let i = 1; i <= runs; i++) {
  for (const mode of modes) {
    process.stderr.write(`stress: run ${i}/${runs} (${mode})…\n`)
    const r = runSuite(i, mode)
    results.push(r)
    process.stderr.write(
      `stress: run ${i} (${mode}): ${r.ok ? 'passed' : 'FAILED'}, ${r.passed} passed, ${r.failed.length} failed, ${r.wallS.toFixed(0)} s\n`,
    )
    for (const f of r.failed) process.stderr.write(`  failed: ${f.file} › ${f.name}\n`)
  }
}

const lines = ['', '| mode | runs | passed runs | tests per run | wall time (median, worst) |', '|---|---|---|---|---|']
for (const mode of modes) {
  const rs = results.filter((r) => r.mode === mode)
  const walls = rs.map((r) => r.wallS).sort((a, b) => a - b)
  lines.push(
    `| ${mode === 'hog' ? 'one core busy' : 'idle'} | ${rs.length} | ${rs.filter((r) => r.ok).length} | ` +
      `${rs.map((r) => r.passed + r.failed.length).join(', ')} ` +
      `| ${walls[Math.floor(walls.length / 2)]?.toFixed(0)} s, ${walls.at(-1)?.toFixed(0)} s |`,
  )
}
const slowest = new Map()
for (const r of results)
  for (const t of r.tests) slowest.set(`${t.file} › ${t.name}`, Math.max(slowest.get(`${t.file} › ${t.name}`) ?? 0, t.ms))
lines.push('', 'Slowest tests (worst over all runs):')
for (const [name, ms] of [...slowest].sort((a, b) => b[1] - a[1]).slice(0, 5)) lines.push(`  ${(ms / 1000).toFixed(1)} s  ${name}`)
process.stdout.write(`${lines.join('\n')}\n`)
rmSync(work, { recursive: true, force: true })
process.exitCode = results.every((r) => r.ok) ? 0 : 1
