import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { EndpointRequestFigures } from '../app/contract/endpoint'
import { HistoryRecorder } from '../app/core/history-recorder'
import { exportRequests } from '../app/history/history-export'
import { HistoryStore } from '../app/history/history-store'
import { median, type BenchRow } from './bench-row'

const figures = (i: number): EndpointRequestFigures => ({
  time: Date.now() - (10_000 - i) * 60_000,
  profileId: i % 3 === 0 ? 'qwen3-30b-a3b' : 'gpt-oss-20b',
  method: 'POST',
  path: '/v1/chat/completions',
  status: 200,
  stream: true,
  timeToFirstByteMs: 180 + (i % 50),
  timeToFirstTokenMs: 210 + (i % 50),
  durationMs: 4200 + (i % 700),
  heldMs: 0,
  promptTokens: 800 + (i % 400),
  predictedTokens: 300 + (i % 200),
  predictedTokensPerSecond: 24 + (i % 10) / 10,
  cachedTokens: 1200 + (i % 300),
  promptTokensPerSecond: 410 + (i % 40),
  draftTokens: null,
  draftAccepted: null,
  error: null,
  energyJ: null,
})

const PORTS = {
  launch: () => ({ profileId: 'qwen3-30b-a3b', exe: '/opt/llama/llama-server', args: ['-m', '/models/qwen3-30b-a3b-q4_k_m.gguf'] }),
  facts: async () => ({ profileName: 'Qwen3 30B A3B', engine: 'llama.cpp cuda', engineVersion: 'b6100', driverVersion: null }),
  placementRetry: () => false,
}

/**
 * The usage history's cost: per request on the request path (the endpoint's listener
 * queuing the row; goal <= 0.1 ms median) beside a listener that only keeps the figures
 * in an array, the write behind it (per request, in batches as the 1 s flush makes
 * them), and the file's size per 10,000 requests beside the same rows as JSON.
 */
export async function benchHistory(rounds = 21, batch = 500): Promise<BenchRow[]> {
  const dir = await mkdtemp(join(tmpdir(), 'llama-tray-bench-history-'))
  try {
    const store = HistoryStore.at(dir)
    const recorder = new HistoryRecorder(store, PORTS)
    const kept: EndpointRequestFigures[] = []
    const onPath: number[] = []
    const baseline: number[] = []
    const written: number[] = []
    let n = 0
    for (let r = 0; r < rounds; r++) {
      const batchFigures = Array.from({ length: batch }, () => figures(n++ % 10_000))
      // Alternated so that drift and neighbours fall on both alike.
      for (const which of r % 2 === 0 ? ['ours', 'base'] : ['base', 'ours']) {
        const t0 = performance.now()
        if (which === 'ours') for (const f of batchFigures) recorder.onRequest(f)
        else for (const f of batchFigures) kept.push(f)
        ;(which === 'ours' ? onPath : baseline).push((performance.now() - t0) / batch)
      }
      const t1 = performance.now()
      await store.flush()
      written.push((performance.now() - t1) / batch)
      kept.length = 0
    }
    await recorder.dispose()

    // 10,000 requests in a fresh file, written as the app would (1 s batches of 100).
    await mkdir(join(dir, 'sized'))
    const sized = HistoryStore.at(join(dir, 'sized'))
    const sizedRecorder = new HistoryRecorder(sized, PORTS)
    for (let i = 0; i < 10_000; i++) {
      sizedRecorder.onRequest(figures(i))
      if (i % 100 === 99) await sized.flush()
    }
    const rows = await sized.listRequests({ sinceMs: null, profileId: null })
    await sizedRecorder.dispose()
    const fileBytes = (await stat(sized.path)).size
    const jsonBytes = Buffer.byteLength(exportRequests(rows, 'json'))
    return [
      {
        group: 'history',
        name: 'request path: queue a row (median)',
        value: median(onPath),
        unit: 'ms',
        baseline: median(baseline),
        baselineName: 'push the figures to an array',
      },
      { group: 'history', name: 'write behind: per request, 500 a batch', value: median(written), unit: 'ms' },
      {
        group: 'history',
        name: 'history.sqlite per 10,000 requests',
        value: fileBytes / 1024 / 1024,
        unit: 'MiB',
        baseline: jsonBytes / 1024 / 1024,
        baselineName: 'the same rows as JSON',
      },
    ]
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}
