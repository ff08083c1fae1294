import { describe, expect, it } from 'vitest'
import { connectHost, serverOrigin } from '../contract/client-url'
import { clientBaseUrl, isWsl, wslNote } from './client-address'

describe('client address', () => {
  it('gives the OpenAI-compatible base URL, through loopback for a wildcard bind', () => {
    expect(clientBaseUrl('127.0.0.1', 8080)).toBe('http://127.0.0.1:8080/v1')
    expect(clientBaseUrl(null, 8080)).toBe('http://127.0.0.1:8080/v1')
    expect(clientBaseUrl('0.0.0.0', 8000)).toBe('http://127.0.0.1:8000/v1')
    expect(clientBaseUrl('192.168.1.20', 8000)).toBe('http://192.168.1.20:8000/v1')
    expect(clientBaseUrl('::1', 8000)).toBe('http://[::1]:8000/v1')
    expect(clientBaseUrl('::', 8000)).toBe('http://[::1]:8000/v1')
    expect(clientBaseUrl('[::]', 8000)).toBe('http://[::1]:8000/v1')
  })

  it('connects to the loopback of a wildcard bind, in its family', () => {
    expect([null, '', '0.0.0.0', 'localhost', '::', '[::]', '[::1]', '10.0.0.2'].map(connectHost)).toEqual([
      '127.0.0.1',
      '127.0.0.1',
      '127.0.0.1',
      '127.0.0.1',
      '::1',
      '::1',
      '::1',
      '10.0.0.2',
    ])
    expect(serverOrigin('0.0.0.0', 8080)).toBe('http://127.0.0.1:8080')
    expect(serverOrigin('::', 8080)).toBe('http://[::1]:8080')
  })

  it('knows WSL by its kernel or its variables', () => {
    expect(isWsl('5.15.167.4-microsoft-standard-WSL2', {})).toBe(true)
    expect(isWsl('6.1.0-26-amd64', { WSL_DISTRO_NAME: 'Ubuntu' })).toBe(true)
    expect(isWsl('6.1.0-26-amd64', {})).toBe(false)
    expect(wslNote(8081)).toContain('http://localhost:8081/v1')
  })
})
