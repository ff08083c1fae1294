/**
 * How many inputs each fuzzer tries: FUZZ_RUNS from the environment, 200 by
 * default (npm test; a few seconds per fuzzer), more in npm run test:stress.
 */
export const FUZZ_RUNS = Math.max(1, Number(process.env.FUZZ_RUNS ?? 200) || 200)

/** The worst time and resident memory one input cost: printed with FUZZ_REPORT=1, never asserted (the machine may be busy). */
export class WorstCase {
  private ms = 0
  private rssMiB = 0
  private label = ''
  constructor(private readonly name: string) {}

  async measure<T>(label: string, job: () => Promise<T>): Promise<T> {
    const started = performance.now()
    try {
      return await job()
    } finally {
      this.record(label, started)
    }
  }

  measureSync<T>(label: string, job: () => T): T {
    const started = performance.now()
    try {
      return job()
    } finally {
      this.record(label, started)
    }
  }

  private record(label: string, started: number): void {
    const ms = performance.now() - started
    if (ms > this.ms) {
      this.ms = ms
      this.label = label
    }
    this.rssMiB = Math.max(this.rssMiB, process.memoryUsage().rss / 2 ** 20)
  }

  report(): void {
    if (process.env.FUZZ_REPORT)
      console.log(`${this.name}: ${FUZZ_RUNS} runs, worst ${this.ms.toFixed(1)} ms (${this.label}), peak RSS ${this.rssMiB.toFixed(0)} MiB`)
  }
}

/** Each fuzz test's time limit: a sanity bound that grows with FUZZ_RUNS (100 ms an input, at least 30 s), never a goal. */
export const FUZZ_TIMEOUT_MS = Math.max(30_000, FUZZ_RUNS * 100)
