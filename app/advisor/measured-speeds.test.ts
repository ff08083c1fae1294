import { describe, expect, it } from 'vitest'
import type { BenchResult } from '../contract/bench'
import type { HistoryRequest } from '../contract/history'
import { importArgv } from '../profiles/import-command'
import { measuredSpeeds } from './measured-speeds'

const profile = (name: string, ...args: string[]) =>
  importArgv(['/opt/llama-server', '-m', '/models/qwen.gguf', '-c', '8192', ...args], { name, takenIds: [] })

const request = (generationPerSecond: number | null, error: string | null = null): HistoryRequest =>
  ({ generationPerSecond, error }) as unknown as HistoryRequest

describe('the rates measured for a launch at each --n-cpu-moe', () => {
  it("takes each same-model profile's median since its last edit (3 requests or more), and this launch's bench results", async () => {
    const running = profile('a', '--n-cpu-moe', '30')
    const other = profile('b', '--n-cpu-moe', '36')
    const few = profile('c', '--n-cpu-moe', '40')
    const elsewhere = { ...profile('d', '--n-cpu-moe', '20'), model: '/models/other.gguf' }
    const byId: Record<string, HistoryRequest[]> = {
      [running.id]: [request(20), request(21), request(19), request(null), request(2, 'cut')],
      [other.id]: [request(17), request(18), request(16)],
      [few.id]: [request(10), request(10)],
      [elsewhere.id]: [request(50), request(50), request(50)],
    }
    const asked: number[] = []
    const bench = (over: Partial<BenchResult>): BenchResult =>
      ({
        exe: '/opt/llama-server',
        model: 'qwen.gguf',
        draftModel: null,
        nCpuMoe: 34,
        median: { tokensPerSecond: 18.5 },
        ...over,
      }) as BenchResult
    const speeds = await measuredSpeeds(running, [running, other, few, elsewhere], {
      requests: async (id, since) => {
        asked.push(since)
        return byId[id] ?? []
      },
      benchResults: async () => [
        bench({}),
        bench({ model: 'other.gguf' }),
        bench({ exe: '/opt/ik/llama-server' }),
        bench({ nCpuMoe: null }),
      ],
    })
    expect(speeds).toEqual([
      { nCpuMoe: 30, tokensPerSecond: 20 },
      { nCpuMoe: 36, tokensPerSecond: 17 },
      { nCpuMoe: 34, tokensPerSecond: 18.5 },
    ])
    expect(asked).toContain(Date.parse(running.updatedAt))
  })
})
