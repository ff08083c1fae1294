#!/usr/bin/env node
// `node scripts/llama-server-smoke.mjs <llama-server> <model.gguf>`
//
// Checks that a freshly built llama-server works on this machine before it is cached: it loads the
// model (llama-server decodes a warm-up batch while loading), becomes ready, and answers a short
// completion. Exits 0, or 1 with one line saying how it failed and the server's last log lines.
//
// Why: a build tuned for the build machine's CPU can compile instructions the machine advertises but
// cannot run. On a VM whose CPU reports AMX without the kernel granting it, `-march=native` gave a
// binary that died with SIGSEGV (a general protection fault on `ldtilecfg`) in its first matrix
// multiplication, so every real-server test failed; a broken binary must never reach the cache.
import { spawn } from 'node:child_process'
import { createServer } from 'node:net'

const [bin, model] = process.argv.slice(2)
if (!bin || !model) {
  process.stderr.write('usage: llama-server-smoke.mjs <llama-server> <model.gguf>\n')
  process.exit(2)
}
const DEADLINE_MS = 120_000 // a sanity bound: the tiny model loads in under a second on an idle machine

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer()
    s.once('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address()
      s.close(() => resolve(port))
    })
  })
}

const port = await freePort()
const child = spawn(bin, ['-m', model, '-c', '512', '-np', '1', '-t', '1', '--host', '127.0.0.1', '--port', String(port)], {
  stdio: ['ignore', 'ignore', 'pipe'],
})
const log = []
child.stderr.setEncoding('utf8')
child.stderr.on('data', (chunk) => log.push(...chunk.split('\n').filter(Boolean)))
const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(signal ?? `exit code ${code}`)))

function fail(why) {
  process.stderr.write(`llama-server smoke test: ${why}; its last log lines:\n${log.slice(-8).join('\n')}\n`)
  child.kill('SIGKILL')
  process.exit(1)
}

async function untilExitOr(promise) {
  const result = await Promise.race([promise, exited.then((how) => ({ exited: how }))])
  if (result && typeof result === 'object' && 'exited' in result) fail(`the server stopped (${result.exited})`)
  return result
}

const timer = setTimeout(() => fail(`not ready and answering within ${DEADLINE_MS / 1000} s`), DEADLINE_MS)
const base = `http://127.0.0.1:${port}`
for (;;) {
  const status = await untilExitOr(
    fetch(`${base}/health`).then(
      (r) => r.status,
      () => 0,
    ),
  )
  if (status === 200) break
  await untilExitOr(new Promise((r) => setTimeout(r, 100)))
}
const answer = await untilExitOr(
  fetch(`${base}/completion`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ prompt: 'Hello', n_predict: 4 }),
  }).then(
    async (r) => ({ status: r.status, body: await r.json().catch(() => null) }),
    (err) => ({ status: 0, body: String(err) }),
  ),
)
if (answer.status !== 200 || typeof answer.body?.content !== 'string') fail(`a completion got HTTP ${answer.status}`)
clearTimeout(timer)
child.kill('SIGTERM')
const stop = setTimeout(() => child.kill('SIGKILL'), 10_000)
await exited
clearTimeout(stop)
