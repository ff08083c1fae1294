// Issue #37 on the GPU machine: `llama-tray run <profile> --json` with NVML, five generations through the server's
// own port, and what the snapshots say: each request's energyJ, the profile's J per 1,000 tokens, and the GPU's power,
// limit and energy counter. Usage: node energy-on-gpu.mjs <llama-server> <out dir>
// CLI (default out/cli/llama-tray.mjs), MODEL (default the tiny fixture) and EXTRA_ARGS (split on spaces, after -t)
// let the same script drive a staged CLI and a CUDA build over the synthetic 35B (idle-on-gpu.sh builds both).
import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const [server, out] = process.argv.slice(2)
const cli = process.env.CLI ?? join('out', 'cli', 'llama-tray.mjs')
const home = mkdtempSync(join(tmpdir(), 'energy-home-'))
const env = { ...process.env, LLAMA_TRAY_PORT: '0' }
const model = process.env.MODEL ?? join('test', 'fixtures', 'models', 'tiny-target.gguf')

const gpu = spawnSync(process.execPath, [cli, 'gpu', '--json'], { encoding: 'utf8', env })
writeFileSync(join(out, 'gpu.json'), gpu.stdout)
const imported = spawnSync(
  process.execPath,
  [
    cli,
    '--home',
    home,
    'profiles',
    'import',
    '--name',
    'tiny',
    '--',
    server,
    '-m',
    model,
    '-c',
    '4096',
    '-np',
    '1',
    '-t',
    process.env.THREADS ?? '4',
    ...(process.env.EXTRA_ARGS ?? '').split(' ').filter(Boolean),
  ],
  { encoding: 'utf8', env },
)
if (imported.status !== 0) throw new Error(imported.stderr)

const run = spawn(process.execPath, [cli, '--home', home, 'run', 'tiny', '--json', '--interval', '500'], { env })
const snapshots = []
let buffer = ''
run.stdout.setEncoding('utf8').on('data', (c) => {
  buffer += c
  const lines = buffer.split('\n')
  buffer = lines.pop() ?? ''
  for (const l of lines) if (l.trim()) snapshots.push(JSON.parse(l))
})
run.stderr.pipe(process.stderr)
const sleep = (ms) => new Promise((r) => setTimeout(r, ms))
async function until(check, what, ms = 120_000) {
  const deadline = Date.now() + ms
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await sleep(100)
  }
}
await until(() => snapshots.at(-1)?.server.state === 'ready', 'ready')
const port = snapshots.at(-1).server.port
const rows = []
for (let i = 0; i < 5; i++) {
  const before = snapshots.at(-1).generation?.last?.time ?? 0
  const started = Date.now()
  const res = await fetch(`http://127.0.0.1:${port}/completion`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      prompt: 'Once upon a time',
      n_predict: Number(process.env.N_PREDICT ?? 1500),
      ignore_eos: true,
      temperature: 0,
    }),
  })
  await res.json()
  await until(() => (snapshots.at(-1).generation?.last?.time ?? 0) > before, 'the request in the snapshot')
  const s = snapshots.at(-1)
  const last = s.generation.last
  const device = s.gpu?.devices?.[0] ?? {}
  rows.push({
    request: i + 1,
    wallMs: Date.now() - started,
    predictedTokens: last.predictedTokens,
    tokPerS: Math.round(last.predictedTokensPerSecond),
    energyJ: last.energyJ === null || last.energyJ === undefined ? null : Math.round(last.energyJ * 10) / 10,
    jPer1000: last.energyJ == null ? null : Math.round((last.energyJ / last.predictedTokens) * 1000),
    powerW: device.powerW,
    powerLimitW: device.powerLimitW,
    energyCounterMJ: device.energyMJ ?? null,
  })
}
const final = snapshots.at(-1)
run.kill('SIGINT')
await new Promise((r) => run.on('close', r))
console.table(rows)
console.log(`profile J per 1,000 generated tokens (rolling): ${final.generation?.rolling?.joulesPer1000Tokens ?? 'none'}`)
console.log(`GPU: ${final.gpu?.devices?.[0]?.name} backend ${final.gpu?.backend}`)
writeFileSync(join(out, 'energy.json'), JSON.stringify({ rows, rolling: final.generation?.rolling ?? null, gpu: final.gpu }, null, 2))
