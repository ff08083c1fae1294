import type { HistoryRequest } from '../../../app/contract/history'

/** A finished request with every figure set (override what a test is about). */
export function historyRequest(over: Partial<HistoryRequest> = {}): HistoryRequest {
  return {
    time: Date.now(),
    profileId: 'qwen',
    profileName: 'Qwen3 30B',
    engine: 'mainline',
    engineVersion: 'b6000',
    model: 'qwen3-30b-a3b-q4.gguf',
    path: '/v1/chat/completions',
    status: 200,
    promptTokens: 100,
    cachedTokens: 20,
    generatedTokens: 50,
    draftTokens: null,
    draftAccepted: null,
    promptPerSecond: 400,
    generationPerSecond: 25,
    ttftMs: 300,
    durationMs: 2300,
    energyJ: null,
    error: null,
    ...over,
  }
}
