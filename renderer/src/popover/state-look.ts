import { CircleCheck, CircleStop, CircleX, LoaderCircle, Moon, type LucideIcon } from 'lucide-react'
import type { ServerStateKind } from '../../../app/contract/server-state'

/** The tone's colour token (styles.css): the state reads by its word and icon too, never by colour alone. */
export type StateTone = 'idle' | 'busy' | 'ok' | 'fault'

export interface StateLook {
  readonly label: string
  readonly icon: LucideIcon
  readonly tone: StateTone
}

export const STATE_LOOK: Record<ServerStateKind, StateLook> = {
  stopped: { label: 'Stopped', icon: CircleStop, tone: 'idle' },
  starting: { label: 'Starting', icon: LoaderCircle, tone: 'busy' },
  downloading: { label: 'Downloading', icon: LoaderCircle, tone: 'busy' },
  loading: { label: 'Loading', icon: LoaderCircle, tone: 'busy' },
  ready: { label: 'Running', icon: CircleCheck, tone: 'ok' },
  sleeping: { label: 'Sleeping', icon: Moon, tone: 'ok' },
  stopping: { label: 'Stopping', icon: LoaderCircle, tone: 'busy' },
  backoff: { label: 'Restarting', icon: LoaderCircle, tone: 'busy' },
  crashloop: { label: 'Gave up', icon: CircleX, tone: 'fault' },
  errored: { label: 'Failed', icon: CircleX, tone: 'fault' },
}
