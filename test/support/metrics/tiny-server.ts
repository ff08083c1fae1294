import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { ServerSupervisor } from '../../../app/supervisor/supervisor'
import { serverOrigin } from '../../../app/contract/client-url'
import { modelsDir, repoRoot } from './fixtures'

/** The real llama-server (scripts/llama-server-build.mjs: $LLAMA_SERVER_BIN, the cache, or a build). */
export async function llamaServerBinary(): Promise<string> {
  const script = pathToFileURL(resolve(repoRoot, 'scripts', 'llama-server-build.mjs')).href
  const mod = (await import(script)) as { ensureLlamaServer: () => string }
  return mod.ensureLlamaServer()
}

export interface TinyServer {
  readonly supervisor: ServerSupervisor
  readonly baseUrl: string
  /** Every log line since the start. */
  readonly lines: string[]
  stop(): Promise<void>
}

/** Starts llama-server on the tiny target model through the real supervisor, in a temp home. */
export async function startTinyServer(
  extraArgs: readonly string[] = [],
  onLine?: (line: string) => void,
  modelFile = 'tiny-target.gguf',
): Promise<TinyServer> {
  const exe = await llamaServerBinary()
  const home = mkdtempSync(join(tmpdir(), 'llama-tray-metrics-'))
  const supervisor = new ServerSupervisor({ home })
  const lines: string[] = []
  supervisor.on('log', (l) => {
    lines.push(l)
    onLine?.(l)
  })
  // One thread: a busy machine then slows the server in proportion instead of stalling its threads at a barrier.
  const args = ['-m', join(modelsDir, modelFile), '-c', '4096', '-np', '1', '-t', '1', '--seed', '1', ...extraArgs]
  const status = await supervisor.start({ profileId: 'tiny', exe, args })
  const stop = async (): Promise<void> => {
    await supervisor.dispose()
    rmSync(home, { recursive: true, force: true })
  }
  if (status.state !== 'ready') {
    await stop()
    throw new Error(`llama-server did not start: ${status.state} ${status.lastExit?.reason ?? ''}\n${lines.slice(-20).join('\n')}`)
  }
  return { supervisor, baseUrl: serverOrigin(status.host, status.port), lines, stop }
}

export { streamCompletion, type StreamedCompletion } from './stream-completion'
