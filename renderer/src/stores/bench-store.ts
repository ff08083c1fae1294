import { create } from 'zustand'
import type { BenchProgress, BenchReport } from '../../../app/contract/bench'
import type { Result } from '../../../app/contract/commands'
import { api } from './api'
import type { Problem } from '../../../app/contract/problem'
import { rejectionProblem } from '../lib/rejection-problem'

interface BenchState {
  /** True from the click on Start until bench:run answers. */
  readonly running: boolean
  readonly progress: BenchProgress | null
  readonly report: BenchReport | null
  readonly error: Problem | null
  readonly history: readonly BenchReport[]
}

const HISTORY = 20

export const useBenchStore = create<BenchState>()(() => ({ running: false, progress: null, report: null, error: null, history: [] }))

export function receiveBenchProgress(progress: BenchProgress): void {
  useBenchStore.setState({ progress })
}

export async function refreshBenchHistory(): Promise<void> {
  useBenchStore.setState({ history: await api().benchHistory(HISTORY) })
}

/** Runs a bench (one profile) or a compare (several); the result and the error come from main, never guessed. */
export function startBench(profileIds: readonly string[], runs: number, tokens: number): Promise<void> {
  return runJob(() => api().benchRun(profileIds, { runs, tokens }))
}

/** Tunes one profile's --n-cpu-moe (and draft on/off); with saveAs, the fastest setting becomes a new profile. */
export function startTune(profileId: string, runs: number, tokens: number, saveAs: string | null): Promise<void> {
  return runJob(() => api().benchTune(profileId, { runs, tokens, saveAs }))
}

async function runJob(job: () => Promise<Result<BenchReport>>): Promise<void> {
  if (useBenchStore.getState().running) return
  useBenchStore.setState({ running: true, progress: null, error: null })
  try {
    const r = await job()
    useBenchStore.setState(r.ok ? { report: r.value, error: null } : { error: r.error })
  } catch (err) {
    useBenchStore.setState({ error: rejectionProblem(err) })
  } finally {
    useBenchStore.setState({ running: false })
  }
  await refreshBenchHistory()
}

export function cancelBench(): Promise<void> {
  return api().benchCancel()
}

export function exportBenchReport(createdAt: string, format: 'markdown' | 'csv'): Promise<Result<string>> {
  return api().benchExport(createdAt, format)
}

export function showBenchReport(report: BenchReport): void {
  useBenchStore.setState({ report, error: null })
}
