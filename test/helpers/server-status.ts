import {
  serverProcess,
  type ExitInfo,
  type ServerProcess,
  type ServerStateKind,
  type ServerStatus,
  type ServerStatusOf,
} from '../../app/contract/server-state'
import { exitInfo } from '../../app/supervisor/supervised-run'

const COMMON = { profileId: 'default', exe: '/opt/llama/llama-server', lastExit: null, restarts: 0 }
const NO_PROCESS = { pid: null, host: null, port: null }
const PROCESS = { pid: 4242, host: '127.0.0.1', port: 8081 }
const CRASH: ExitInfo = exitInfo({ code: 1, signal: null }, { kind: 'crashed', reason: 'llama-server exited with code 1', hint: null }, [])
const READY_SINCE = 1_700_000_000_000

/** A plausible status of each state: the fields that state has, and nothing else. */
const EXAMPLES: { readonly [K in ServerStateKind]: ServerStatusOf<K> } = {
  stopped: { ...COMMON, ...NO_PROCESS, state: 'stopped' },
  starting: { ...COMMON, ...PROCESS, state: 'starting' },
  downloading: {
    ...COMMON,
    ...PROCESS,
    state: 'downloading',
    download: { repo: 'org/model-GGUF', file: 'model-Q4_K_M.gguf', bytes: 1e9, total: 4e9, rateBps: 25e6 },
  },
  loading: { ...COMMON, ...PROCESS, state: 'loading' },
  ready: { ...COMMON, ...PROCESS, state: 'ready', readySince: READY_SINCE, sleepIdleSeconds: null },
  sleeping: { ...COMMON, ...PROCESS, state: 'sleeping', readySince: READY_SINCE, sleepIdleSeconds: 300 },
  stopping: { ...COMMON, ...PROCESS, state: 'stopping' },
  backoff: { ...COMMON, ...NO_PROCESS, lastExit: CRASH, state: 'backoff', restartAt: READY_SINCE + 2000 },
  crashloop: { ...COMMON, ...NO_PROCESS, lastExit: CRASH, state: 'crashloop' },
  errored: { ...COMMON, ...NO_PROCESS, lastExit: CRASH, state: 'errored' },
}

/** A status in `state`, its example fields replaced by `fields` (which the type limits to the ones that state has). */
export function serverStatus<K extends ServerStateKind>(
  state: K,
  fields: Partial<Omit<ServerStatusOf<K>, 'state'>> = {},
): ServerStatusOf<K> {
  return { ...EXAMPLES[state], ...fields }
}

/** The stopped status before any start: no profile, no binary, no exit. */
export const NEVER_STARTED: ServerStatus = { ...EXAMPLES.stopped, profileId: null, exe: null }

/** The process of a status a test knows runs (ready, loading…): a clear failure, not a null port, when it does not. */
export function runningProcess(status: ServerStatus): ServerProcess {
  const running = serverProcess(status)
  if (!running) throw new Error(`expected a running llama-server, but the server is ${status.state}`)
  return running
}
