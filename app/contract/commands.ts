import type { ServerStatus } from './server-state'
import type { Snapshot } from './snapshot'

/**
 * What to launch: an executable and its arguments, exactly as they will be
 * passed (no shell). The supervisor adds --host/--port when they are absent.
 */
export interface LaunchSpec {
  readonly profileId: string
  readonly exe: string
  readonly args: readonly string[]
  /** Extra environment variables for the child (the inherited env is scrubbed first). */
  readonly env?: Readonly<Record<string, string>>
}

/** Expected failures come back as values, not exceptions. */
export type Result<T, E = string> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: E }

/**
 * Requests with a reply (renderer → main invoke). Return types are promises.
 * The renderer names a profile, never an executable: main resolves the
 * profile to a LaunchSpec, so a compromised renderer cannot spawn programs.
 */
export interface CommandChannels {
  'server:start': (profileId: string) => Promise<Result<ServerStatus>>
  'server:stop': () => Promise<ServerStatus>
  'server:restart': () => Promise<Result<ServerStatus>>
  'server:status': () => Promise<ServerStatus>
  'server:logs': (maxLines: number) => Promise<readonly string[]>
}

/** Pushed events (core → views). */
export interface EventChannels {
  'server:state-changed': (status: ServerStatus) => void
  'server:log': (lines: readonly string[]) => void
  snapshot: (snapshot: Snapshot) => void
}

export type CommandName = keyof CommandChannels
export type EventName = keyof EventChannels

/** The API the preload exposes to the renderer: one method per channel. */
export interface LlamaTrayApi {
  startServer(profileId: string): Promise<Result<ServerStatus>>
  stopServer(): Promise<ServerStatus>
  restartServer(): Promise<Result<ServerStatus>>
  getStatus(): Promise<ServerStatus>
  getLogs(maxLines: number): Promise<readonly string[]>
  onStateChanged(listener: (status: ServerStatus) => void): () => void
  onLog(listener: (lines: readonly string[]) => void): () => void
  onSnapshot(listener: (snapshot: Snapshot) => void): () => void
}
