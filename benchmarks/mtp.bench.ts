import { median, type BenchRow } from './bench-row'
import { startBenchServer, type BenchServer } from './bench-server'
import { completeOnce, type Completion } from './completion'

/**
 * A model with an MTP (next-token prediction) head, decoded with the head
 * (`--spec-type draft-mtp`) and without it (the same file, plain), in
 * alternated rounds: generation and prompt speed (a ~400-token prompt) and the
 * head's acceptance. One thread each, so the two do not fight for the cores.
 */
export async function benchMtp(bin: string, mtpModel: string, rounds = 7, nPredict = 192): Promise<BenchRow[]> {
  const prompt = Array.from({ length: 80 }, (_, i) => `Line ${i}: the quick brown fox jumps over the lazy dog.`).join('\n')
  const configs = [
    { name: 'without MTP', args: ['-t', '1'] },
    { name: 'with MTP (--spec-type draft-mtp)', args: ['-t', '1', '--spec-type', 'draft-mtp'] },
  ]
  const servers: BenchServer[] = []
  const runs = configs.map(() => [] as Completion[])
  try {
    for (const c of configs) servers.push(await startBenchServer(bin, mtpModel, c.args))
    for (const s of servers) await completeOnce(s.baseUrl, 16) // warm-up
    for (let round = 0; round < rounds; round++) {
      for (let k = 0; k < configs.length; k++) {
        const i = (k + round) % configs.length // alternate who goes first
        runs[i]?.push(await completeOnce((servers[i] as BenchServer).baseUrl, nPredict, prompt))
      }
    }
  } finally {
    await Promise.all(servers.map((s) => s.stop()))
  }
  const [plain = [], mtp = []] = runs
  const gen = (r: Completion[]) => median(r.map((c) => c.predictedPerSecond))
  const pp = (r: Completion[]) => median(r.map((c) => c.promptPerSecond))
  const acceptance = median(mtp.map((c) => (c.draftN ? (c.draftAccepted ?? 0) / c.draftN : 0)))
  const base = configs[0]?.name ?? ''
  return [
    { group: 'mtp', name: `generation, without MTP (${nPredict} tokens, median of ${plain.length})`, value: gen(plain), unit: 'tok/s' },
    { group: 'mtp', name: `generation, ${configs[1]?.name}`, value: gen(mtp), unit: 'tok/s', baseline: gen(plain), baselineName: base },
    { group: 'mtp', name: 'prompt (~400 tokens), without MTP', value: pp(plain), unit: 'tok/s' },
    { group: 'mtp', name: 'prompt (~400 tokens), with MTP', value: pp(mtp), unit: 'tok/s', baseline: pp(plain), baselineName: base },
    { group: 'mtp', name: 'MTP acceptance (accepted / drafted, median)', value: acceptance, unit: '' },
  ]
}
