import type { EndpointRequestFigures } from '../../contract/endpoint'
import { isServing } from '../../contract/server-state'
import { standardCliCore } from '../cli-core-factory'
import { isWsl, wslNote } from '../../lib/client-address'
import { profileActions } from '../../core/profile-actions'
import { keyProblemSentence, readKeyFile } from '../../supervisor/api-key-rules'
import { UsageError } from '../cli-error'
import { followPinned, pinnedLine } from '../pinned-lines'
import type { CliCommand, CliContext } from '../command'
import { parseOptions, portNumber, positiveNumber } from '../parse-options'
import { problemText } from '../problem-text'
import { serverStateSentence, STILL_STOPPING } from '../server-sentences'
import { followPowerNotices } from '../power-lines'
import { SERVE_HELP } from './serve-help'
import { formatEnergy } from '../../contract/energy'
import { HomeLock, type HeldHome } from '../../core/home-lock'

export interface ServeOptions {
  readonly host: string
  /** null: the port setting. */
  readonly port: number | null
  readonly apiKeyFile: string | null
  /** A profile to start at once (else the first request's `model` starts one). */
  readonly profile: string | null
  readonly json: boolean
  readonly readyTimeoutS: number
}

export function parseServeArgs(args: readonly string[]): ServeOptions {
  const { values, positionals } = parseOptions(
    args,
    {
      port: { type: 'string' },
      host: { type: 'string' },
      'api-key-file': { type: 'string' },
      json: { type: 'boolean' },
      'ready-timeout': { type: 'string' },
    },
    true,
  )
  if (positionals.length > 1)
    throw new UsageError(`Unexpected argument "${positionals[1]}": serve takes at most one profile to start at once.`)
  const port = portNumber('port', values.port)
  return {
    host: values.host ?? '127.0.0.1',
    port,
    apiKeyFile: values['api-key-file'] ?? null,
    profile: positionals[0] ?? null,
    json: values.json ?? false,
    readyTimeoutS: positiveNumber('ready-timeout', values['ready-timeout'], 120),
  }
}

/** The key clients must send: the first key of the file, checked (api-key-rules.ts) whatever the host, since it was given. */
async function readKey(file: string | null): Promise<string | null> {
  if (file === null) return null
  const read = await readKeyFile(file)
  if (!read.ok) throw new UsageError(keyProblemSentence(read.problem))
  return read.keys[0] as string
}

function figuresLine(f: EndpointRequestFigures): string {
  const parts = [`${f.method} ${f.path}`, f.profileId ?? '-', String(f.status)]
  if (f.predictedTokens !== null) parts.push(`${f.predictedTokens} tokens`)
  if (f.predictedTokensPerSecond !== null) parts.push(`${f.predictedTokensPerSecond.toFixed(1)} tok/s`)
  if (f.timeToFirstTokenMs !== null) parts.push(`first token ${Math.round(f.timeToFirstTokenMs)} ms`)
  if (f.heldMs >= 1) parts.push(`held ${Math.round(f.heldMs)} ms`)
  parts.push(`${Math.round(f.durationMs)} ms`)
  if (f.energyJ !== null) parts.push(`GPU ${formatEnergy(f.energyJ)}`)
  return parts.join('  ')
}

/** One OpenAI-compatible endpoint in front of the supervised server until Ctrl+C. */
export async function serveUntilStopped(options: ServeOptions, io: CliContext): Promise<number> {
  const apiKey = await readKey(options.apiKeyFile)
  // One app, serve or run per home: a second one is refused with the first's pid and port (HomeInUseError).
  const lock = await (io.lockHome ?? HomeLock.acquire)(io.home, 'serve')
  try {
    return await serveHoldingHome(options, io, apiKey, lock)
  } finally {
    await lock.release()
  }
}

async function serveHoldingHome(options: ServeOptions, io: CliContext, apiKey: string | null, lock: HeldHome): Promise<number> {
  const core = await (io.createCore ?? standardCliCore)({
    home: io.home,
    readyTimeoutMs: options.readyTimeoutS * 1000,
    warn: (m) => io.stderr.write(`llama-tray: ${m}\n`),
  })
  const write = (text: string): void => {
    try {
      io.stdout.write(text)
    } catch {
      // a closed pipe must not stop the endpoint
    }
  }
  const port = options.port ?? core.settings.port
  // The core writes the record `llama-tray profiles use` finds this serve by, naming the key file.
  const listened = await core.startEndpoint({ host: options.host, port, apiKey, apiKeyFile: options.apiKeyFile })
  if (!listened.ok) {
    await core.dispose()
    throw new UsageError(listened.error)
  }
  const endpoint = listened.status
  await lock.setPort(endpoint.port)
  if (options.json) write(`${JSON.stringify({ event: 'listening', endpoint })}\n`)
  else {
    const names = (await profileActions({ home: io.home }).list()).profiles.map((p) => p.id)
    io.stderr.write(
      `llama-tray: The OpenAI-compatible endpoint is at ${endpoint.url}; a request's "model" picks the profile ` +
        `(${names.length ? `profiles: ${names.join(', ')}` : 'no profiles yet: llama-tray profiles import'}).\n`,
    )
    if (isWsl()) io.stderr.write(`llama-tray: ${wslNote(endpoint.port)}\n`)
  }
  core.onEndpointRequest((f) => write(options.json ? `${JSON.stringify({ event: 'request', figures: f })}\n` : `${figuresLine(f)}\n`))
  let failureSaid = false // a failed start is said once: by its state change, or else by the start's own result
  core.on('server:state-changed', (status) => {
    if (options.json) write(`${JSON.stringify({ event: 'state', status })}\n`)
    else {
      const said = serverStateSentence({
        state: status.state,
        profileId: status.profileId,
        sleepIdleSeconds: isServing(status) ? status.sleepIdleSeconds : null,
        reason: status.lastExit?.reason ?? null,
        hint: status.lastExit?.hint ?? null,
      })
      if (said !== null) io.stderr.write(`llama-tray: ${said}\n`)
      if (status.state === 'errored' || status.state === 'crashloop') failureSaid = true
    }
  })

  // A pinned server's changes come with the snapshots: a line when its state or its restarts change (its requests have
  // their own lines); in JSON also when its last request's figures do.
  core.on(
    'snapshot',
    followPinned((p, worthALine) => {
      if (options.json) write(`${JSON.stringify({ event: 'pinned', server: p })}\n`)
      else if (worthALine) io.stderr.write(`llama-tray: ${pinnedLine(p)}\n`)
    }, options.json),
  )

  core.on(
    'snapshot',
    followPowerNotices((sentence) => io.stderr.write(`llama-tray: ${sentence}\n`)),
  )

  let finish!: (code: number) => void
  const done = new Promise<number>((resolve) => (finish = resolve))
  let stopping = false
  const onSignal = (): void => {
    if (stopping) {
      io.stderr.write(`llama-tray: ${STILL_STOPPING}\n`)
      return
    }
    stopping = true
    void core.dispose().then(() => finish(0)) // the endpoint's record goes first
  }
  for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) io.signals.on(s, onSignal)
  if (options.profile !== null) {
    void core.startProfile(options.profile).then((r) => {
      if (!r.ok && !failureSaid)
        io.stderr.write(
          problemText({ ...r.error, sentence: `Profile "${options.profile}" did not start. ${r.error.sentence}` }, io.verbose ?? false),
        )
    })
  }
  try {
    return await done
  } finally {
    for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) io.signals.off(s, onSignal)
  }
}

export const serveCommand: CliCommand = {
  ...SERVE_HELP,
  run: (args, context) => serveUntilStopped(parseServeArgs(args), context),
}
