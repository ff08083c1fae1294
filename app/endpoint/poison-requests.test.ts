import { expect, it } from 'vitest'
import { POISON_REFUSAL_MS, PoisonRequests } from './poison-requests'

it('refuses a body that crashed the server for the refusal time only, and no other body', () => {
  let now = 1_000
  const poison = new PoisonRequests(() => now)
  poison.crashedOn(Buffer.from('{"prompt":"bad"}'))
  expect(poison.refuses(Buffer.from('{"prompt":"bad"}'))).toBe(true)
  expect(poison.refuses(Buffer.from('{"prompt":"good"}'))).toBe(false)
  now += POISON_REFUSAL_MS - 1
  expect(poison.refuses(Buffer.from('{"prompt":"bad"}'))).toBe(true)
  now += 1
  expect(poison.refuses(Buffer.from('{"prompt":"bad"}'))).toBe(false)
})
