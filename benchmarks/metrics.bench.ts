import { median as medianOrNull } from '../app/metrics/median'
import { SlotsPoller } from '../app/metrics/slots-poller'
import { median, type BenchRow } from './bench-row'
import { startBenchServer } from './bench-server'
import { completeOnce as complete, type Completion } from './completion'

/** One request with the /slots poller running at its default pace; also returns the live figures' median. */
async function withPoller(baseUrl: string, nPredict: number, prompt?: string): Promise<{ done: Completion; liveMedian: number | null }> {
  const poller = new SlotsPoller({ baseUrl })
  const live: number[] = []
  poller.on('poll', (o) => {
    if (o.kind === 'ok') for (const s of o.slots) if (s.tokensPerSecond !== null) live.push(s.tokensPerSecond)
  })
  poller.start()
  try {
    const done = await complete(baseUrl, nPredict, prompt)
    return { done, liveMedian: medianOrNull(live) }
  } finally {
    await poller.stop()
  }
}

/**
 * Generation speed of the real llama-server (tiny model) with and without the
 * /slots poller, alternating runs so drift and neighbours cancel. Goal: ratio ≥ 0.98.
 */
export async function benchMetrics(bin: string, model: string, rounds = 9, nPredict = 300): Promise<BenchRow[]> {
  const server = await startBenchServer(bin, model)
  const baseUrl = server.baseUrl
  const without: number[] = []
  const withP: number[] = []
  const agreement: number[] = []
  // A long prompt (~2,000 tokens), where the poller asks every 100 ms until the first token.
  const longPrompt = 'The quick brown fox jumps over the lazy dog while the river runs past the old mill. '.repeat(120)
  const promptWithout: number[] = []
  const promptWith: number[] = []
  try {
    await complete(baseUrl, 64) // warm-up
    for (let i = 0; i < rounds; i++) {
      const order = i % 2 === 0 ? ['without', 'with'] : ['with', 'without']
      for (const which of order) {
        if (which === 'without') {
          without.push((await complete(baseUrl, nPredict)).predictedPerSecond)
          promptWithout.push((await complete(baseUrl, 1, longPrompt)).promptPerSecond)
        } else {
          const { done, liveMedian } = await withPoller(baseUrl, nPredict)
          withP.push(done.predictedPerSecond)
          if (liveMedian !== null) agreement.push(liveMedian / done.predictedPerSecond)
          promptWith.push((await withPoller(baseUrl, 1, longPrompt)).done.promptPerSecond)
        }
      }
    }
  } finally {
    await server.stop()
  }
  const base = median(without)
  const ours = median(withP)
  // Each round ran both, in alternating order: the median of the per-round ratios cancels drift best.
  const paired = (a: readonly number[], b: readonly number[]): number => median(a.map((x, i) => x / (b[i] as number)))
  return [
    {
      group: 'metrics',
      name: `generation with /slots poller (${nPredict} tokens, median of ${rounds})`,
      value: ours,
      unit: 'tok/s',
      baseline: base,
      baselineName: 'no poller',
    },
    {
      group: 'metrics',
      name: 'generation ratio with/without poller, median of per-round ratios (goal ≥ 0.98)',
      value: paired(withP, without),
      unit: 'ratio',
    },
    {
      group: 'metrics',
      name: 'live figure median / server predicted_per_second',
      value: agreement.length > 0 ? median(agreement) : NaN,
      unit: 'ratio',
    },
    {
      group: 'metrics',
      name: `prompt processing with /slots poller (~2,000-token prompt, median of ${rounds})`,
      value: median(promptWith),
      unit: 'tok/s',
      baseline: median(promptWithout),
      baselineName: 'no poller',
    },
    {
      group: 'metrics',
      name: 'prompt ratio with/without poller, median of per-round ratios (goal ≥ 0.98)',
      value: paired(promptWith, promptWithout),
      unit: 'ratio',
    },
  ]
}
