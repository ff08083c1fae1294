import { useState } from 'react'
import type { Problem } from '../../../app/contract/problem'
import { saveSettings } from '../actions/settings-actions'
import { gameFreedVram, gameText } from '../lib/game-text'
import { useSnapshotStore } from '../stores/snapshot-store'
import { ProblemView } from './ProblemView'

/**
 * A game holds the GPU (the onGame watch saw it): which one and what was done, in one line. When the server was
 * stopped or put to sleep for it, "Keep running during games" sets onGame to keep (CLI: `llama-tray settings set onGame keep`)
 * and the core brings the profile back at once, beside the game.
 */
export function GameNote(): React.JSX.Element | null {
  const text = useSnapshotStore((s) => gameText(s.snapshot?.game))
  const freed = useSnapshotStore((s) => gameFreedVram(s.snapshot?.game))
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<Problem | null>(null)
  if (text === null) return null
  const keep = async (): Promise<void> => {
    setBusy(true)
    setError(null)
    try {
      const r = await saveSettings({ onGame: 'keep' })
      if (!r.ok) setError(r.error)
    } finally {
      setBusy(false)
    }
  }
  return (
    <div className="note game-note" role="status" data-testid="game-note">
      <span>{text}</span>{' '}
      {freed && (
        <button type="button" onClick={() => void keep()} disabled={busy} data-testid="game-keep">
          Keep running during games
        </button>
      )}
      {error && <ProblemView problem={error} alert={false} />}
    </div>
  )
}
