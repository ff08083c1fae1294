import { spawn, type ChildProcess } from 'node:child_process'
import { findFreePort } from '../app/supervisor/free-port'
import { probeHealth } from '../app/supervisor/health'
import { trackChild } from './cleanup'

export interface BenchServer {
  readonly child: ChildProcess
  readonly port: number
  readonly baseUrl: string
  /** SIGTERM, bounded (llama-server's handler can deadlock), then SIGKILL; resolves after the exit. */
  stop(): Promise<void>
}

/**
 * A bare llama-server for benchmarks that measure something beside it (the
 * poller, telemetry): spawned directly so the supervisor is not part of the figure.
 */
export async function startBenchServer(bin: string, model: string, extraArgs: readonly string[] = []): Promise<BenchServer> {
  const port = await findFreePort()
  const child = spawn(bin, ['-m', model, '-c', '4096', '-np', '1', ...extraArgs, '--host', '127.0.0.1', '--port', String(port)], {
    stdio: 'ignore',
  })
  trackChild(child)
  const exited = new Promise<void>((r) => child.once('exit', () => r()))
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return
    child.kill('SIGTERM')
    const graceful = await Promise.race([exited.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 5000))])
    if (!graceful) child.kill('SIGKILL')
    await exited
  }
  const deadline = Date.now() + 60_000
  while ((await probeHealth('127.0.0.1', port, 1000)).kind !== 'ready') {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop()
      throw new Error('bench: llama-server did not become ready')
    }
    await new Promise((r) => setTimeout(r, 50))
  }
  return { child, port, baseUrl: `http://127.0.0.1:${port}`, stop }
}
