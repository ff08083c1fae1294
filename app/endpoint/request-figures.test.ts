import { describe, expect, it } from 'vitest'
import { FiguresTap, lastErrorMessage, lastTimings } from './request-figures'

describe('the figures taken from what passes through', () => {
  it('reads the last complete timings of a JSON answer or an SSE stream', () => {
    const json = '{"choices":[],"usage":{},"timings":{"prompt_n":14,"predicted_n":8,"predicted_per_second":60.85,"note":"a } in a string"}}'
    expect(lastTimings(json)).toEqual({
      promptTokens: 14,
      cachedTokens: null,
      promptTokensPerSecond: null,
      predictedTokens: 8,
      predictedTokensPerSecond: 60.85,
      draftTokens: null,
      draftAccepted: null,
    })
    const drafted = '{"timings":{"cache_n":3,"prompt_n":5,"prompt_per_second":250.5,"predicted_n":9,"draft_n":6,"draft_n_accepted":4}}'
    expect(lastTimings(drafted)).toMatchObject({ cachedTokens: 3, promptTokensPerSecond: 250.5, draftTokens: 6, draftAccepted: 4 })
    const sse =
      'data: {"timings":{"predicted_n":1,"predicted_per_second":5}}\n\ndata: ' +
      '{"timings":{"predicted_n":2,"predicted_per_second":6}}\n\ndata: [DONE]\n\n'
    expect(lastTimings(sse)).toMatchObject({ predictedTokens: 2, predictedTokensPerSecond: 6 })
    expect(lastTimings('data: {"timings":{"predicted_n":3')).toBeNull() // cut off
    expect(lastTimings('{"content":"no figures"}')).toBeNull()
  })

  it('reads the message of an error answer', () => {
    expect(lastErrorMessage('{"error":{"code":400,"message":"the request exceeds the context","type":"invalid_request_error"}}')).toBe(
      'the request exceeds the context',
    )
    expect(lastErrorMessage('{"content":"fine"}')).toBeNull()
  })

  it('passes chunks on unchanged, noting the first byte and the first event', async () => {
    const tap = new FiguresTap(true)
    const out: Buffer[] = []
    tap.on('data', (c: Buffer) => out.push(c))
    tap.write(Buffer.from(': comment\n'))
    tap.write(Buffer.from('data: {"timings":{"predicted_n":4,"predicted_per_second":40}}\n\n'))
    tap.end()
    await new Promise((r) => tap.on('end', r))
    expect(Buffer.concat(out).toString()).toBe(': comment\ndata: {"timings":{"predicted_n":4,"predicted_per_second":40}}\n\n')
    expect(tap.firstByteAt).not.toBeNull()
    expect(tap.firstEventAt).toBeGreaterThanOrEqual(tap.firstByteAt as number)
    expect(tap.timings()).toMatchObject({ predictedTokens: 4 })
  })
})
