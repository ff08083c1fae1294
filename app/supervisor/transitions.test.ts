import { describe, expect, it } from 'vitest'
import { SERVER_STATE_KINDS, type ServerStateKind } from '../contract/server-state'
import { hasProcess, isRunning, servesRequests } from '../contract/server-state'
import { isValidTransition, TRANSITIONS } from './transitions'

describe('transition table', () => {
  const allowed: [ServerStateKind, ServerStateKind][] = [
    ['stopped', 'starting'],
    ['starting', 'loading'],
    ['loading', 'ready'],
    ['ready', 'stopping'],
    ['stopping', 'stopped'],
    ['ready', 'backoff'],
    ['backoff', 'starting'],
    ['ready', 'crashloop'],
    ['loading', 'errored'],
    ['errored', 'starting'],
    ['crashloop', 'stopped'],
    ['ready', 'sleeping'],
    ['sleeping', 'ready'],
    ['sleeping', 'stopping'],
    ['sleeping', 'backoff'],
    // The watchdog stops a server that stopped answering; the restart policy picks what follows.
    ['stopping', 'backoff'],
    ['stopping', 'crashloop'],
  ]
  it.each(allowed)('%s → %s is allowed', (from, to) => expect(isValidTransition(from, to)).toBe(true))

  const forbidden: [ServerStateKind, ServerStateKind][] = [
    ['stopped', 'ready'],
    ['stopping', 'starting'],
    ['stopping', 'ready'],
    ['stopping', 'errored'],
    ['backoff', 'ready'],
    ['ready', 'starting'],
    ['errored', 'ready'],
    // Only a ready server goes to sleep, and a sleeping one wakes to ready, never back through a load.
    ['loading', 'sleeping'],
    ['starting', 'sleeping'],
    ['stopped', 'sleeping'],
    ['sleeping', 'loading'],
    ['sleeping', 'starting'],
    ['sleeping', 'stopped'],
  ]
  it.each(forbidden)('%s → %s is forbidden', (from, to) => expect(isValidTransition(from, to)).toBe(false))

  it('covers every state, and every state can reach stopped', () => {
    expect(Object.keys(TRANSITIONS).sort()).toEqual([...SERVER_STATE_KINDS].sort())
    for (const start of SERVER_STATE_KINDS) {
      const seen = new Set<ServerStateKind>([start])
      const queue = [start]
      while (queue.length) {
        for (const next of TRANSITIONS[queue.shift() as ServerStateKind]) {
          if (!seen.has(next)) {
            seen.add(next)
            queue.push(next)
          }
        }
      }
      expect(seen.has('stopped'), start).toBe(true)
    }
  })

  it('knows which states have a live process', () => {
    expect(SERVER_STATE_KINDS.filter(hasProcess)).toEqual(['starting', 'downloading', 'loading', 'ready', 'sleeping', 'stopping'])
  })

  it('counts a sleeping server as running and serving requests', () => {
    expect(isRunning('sleeping')).toBe(true)
    expect(SERVER_STATE_KINDS.filter(servesRequests)).toEqual(['ready', 'sleeping'])
  })
})
