import { replay } from '../test/support/core/switch-replay'
import type { BenchRow } from './bench-row'
import { percentile } from './percentile'

/**
 * Grouping (15 s residency, the default) against switching at once, on an
 * A B A A C trace repeated 20 times (a request every 0.3 s, 1 s to serve, 5 s
 * to load): the policy replayed clock-free, so the figures are the rules' own.
 */
export function benchSwitchTrace(): BenchRow[] {
  const pattern = ['a', 'b', 'a', 'a', 'c']
  const trace = Array.from({ length: 100 }, (_, i): [string, number] => [pattern[i % 5] as string, i * 300])
  const grouped = replay(trace, 15_000)
  const atOnce = replay(trace, 0)
  const waits = (r: typeof grouped): number[] => r.waits.filter((w): w is number => w !== null).map((w) => w / 1000)
  const rows = (name: string, unit: string, g: number, o: number): BenchRow => ({
    group: 'switch scheduling, the policy replayed (A B A A C, 100 requests)',
    name,
    value: g,
    unit,
    baseline: o,
    baselineName: 'switch at once',
  })
  return [
    rows('loads', 'loads', grouped.loads.length, atOnce.loads.length),
    rows('p50 wait', 's', percentile(waits(grouped), 50), percentile(waits(atOnce), 50)),
    rows('p95 wait', 's', percentile(waits(grouped), 95), percentile(waits(atOnce), 95)),
  ]
}
