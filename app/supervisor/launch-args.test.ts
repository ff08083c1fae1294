import { describe, expect, it } from 'vitest'
import { has as hasFlag, lastValue as findFlagValue } from '../contract/flag-args'
import { isLoopbackHost, resolveEndpoint, scrubEnvironment } from './launch-args'

describe('launch args', () => {
  it('finds the last value of a flag in either spelling', () => {
    expect(findFlagValue(['-m', 'a.gguf', '--model=b.gguf'], ['-m', '--model'])).toBe('b.gguf')
    expect(findFlagValue(['--port'], ['--port'])).toBeNull()
    expect(hasFlag(['--api-key=x'], ['--api-key'])).toBe(true)
  })

  it('adds --host 127.0.0.1 and a picked port when absent', async () => {
    const r = await resolveEndpoint(['-m', 'a.gguf'], async () => 4321)
    expect(r).toEqual({ args: ['-m', 'a.gguf', '--host', '127.0.0.1', '--port', '4321'], host: '127.0.0.1', port: 4321, portChosen: true })
  })

  it('keeps the user host and port', async () => {
    const r = await resolveEndpoint(['--host', '0.0.0.0', '--port', '8000'], async () => 1)
    expect(r).toMatchObject({ host: '0.0.0.0', port: 8000, portChosen: false })
    expect(r.args).toEqual(['--host', '0.0.0.0', '--port', '8000'])
  })

  it('replaces --port 0 in place', async () => {
    expect((await resolveEndpoint(['--port', '0'], async () => 5555)).args).toEqual(['--port', '5555', '--host', '127.0.0.1'])
    expect((await resolveEndpoint(['--port=0'], async () => 5555)).args).toEqual(['--port=5555', '--host', '127.0.0.1'])
  })

  it('rejects a port that is not a number', async () => {
    await expect(resolveEndpoint(['--port', 'eighty'], async () => 1)).rejects.toThrow(/not a port number/)
  })

  it('knows loopback addresses', () => {
    for (const h of ['127.0.0.1', 'localhost', '::1', '[::1]', '127.1.2.3', '/tmp/llama.sock']) expect(isLoopbackHost(h), h).toBe(true)
    for (const h of ['0.0.0.0', '::', '192.168.1.2', 'example.com']) expect(isLoopbackHost(h), h).toBe(false)
  })

  it('scrubs variables that would change llama-server behind the profile', () => {
    const env = scrubEnvironment({
      PATH: '/bin',
      LLAMA_ARG_N_GPU_LAYERS: '99',
      llama_arg_port: '1',
      LLAMA_API_KEY: 'k',
      HF_TOKEN: 't',
      AIP_MODE: '1',
      HOME: '/h',
      CUDA_VISIBLE_DEVICES: '0',
    })
    expect(env).toEqual({ PATH: '/bin', HOME: '/h', CUDA_VISIBLE_DEVICES: '0' })
  })
})
