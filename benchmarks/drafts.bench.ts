import { availableParallelism } from 'node:os'
import { median, type BenchRow } from './bench-row'
import { startBenchServer, type BenchServer } from './bench-server'
import { completeOnce, type Completion } from './completion'

/**
 * Speculative decoding on the test build: the tiny target alone and with the tiny draft
 * (`--spec-type draft-simple`), with llama-server's default threads (one per core) and with one
 * thread, in alternated rounds. A build whose draft runs slower than plain generation distorts every
 * draft test, `compare` and the tuner's verdict (the prebuilt CPU backend without OpenMP did: see
 * scripts/llama-server-build.mjs). Threads spin while they wait, so on a shared machine the rows with
 * the default threads move with what else runs; the one-thread rows are the steadier pair.
 */
export async function benchDrafts(bin: string, target: string, draft: string, rounds = 5, nPredict = 128): Promise<BenchRow[]> {
  const withDraft = ['-md', draft, '--spec-type', 'draft-simple']
  const configs = [
    { name: 'plain, default threads', args: [] as string[] },
    { name: 'with the draft, default threads', args: withDraft },
    { name: 'plain, -t 1', args: ['-t', '1'] },
    { name: 'with the draft, -t 1', args: ['-t', '1', ...withDraft] },
  ]
  const servers: BenchServer[] = []
  const runs = configs.map(() => [] as Completion[])
  try {
    for (const c of configs) servers.push(await startBenchServer(bin, target, c.args))
    for (const s of servers) await completeOnce(s.baseUrl, 16) // warm-up
    for (let round = 0; round < rounds; round++) {
      for (let k = 0; k < configs.length; k++) {
        const i = (k + round) % configs.length // rotate who goes first
        runs[i]?.push(await completeOnce((servers[i] as BenchServer).baseUrl, nPredict))
      }
    }
  } finally {
    await Promise.all(servers.map((s) => s.stop()))
  }
  const gen = (i: number): number => median((runs[i] ?? []).map((c) => c.predictedPerSecond))
  const acceptance = (i: number): number => median((runs[i] ?? []).map((c) => (c.draftN ? (c.draftAccepted ?? 0) / c.draftN : 0)))
  const group = 'drafts (test build)'
  const cores = availableParallelism()
  return [
    {
      group,
      name: `tiny-target, plain, default threads (${nPredict} tokens, median of ${rounds}, ${cores} cores)`,
      value: gen(0),
      unit: 'tok/s',
    },
    { group, name: 'tiny-target + tiny-draft, default threads', value: gen(1), unit: 'tok/s', baseline: gen(0), baselineName: 'plain' },
    { group, name: 'tiny-target, plain, -t 1', value: gen(2), unit: 'tok/s' },
    { group, name: 'tiny-target + tiny-draft, -t 1', value: gen(3), unit: 'tok/s', baseline: gen(2), baselineName: 'plain, -t 1' },
    { group, name: 'draft acceptance (accepted / drafted, median, -t 1)', value: acceptance(3), unit: '' },
  ]
}
