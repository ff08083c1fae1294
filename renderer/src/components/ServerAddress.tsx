import { useState } from 'react'
import { clientBaseUrl, isLoopbackHost } from '../../../app/contract/client-url'
import { useSnapshotStore } from '../stores/snapshot-store'
import { useStatusStore } from '../stores/status-store'

const onWindows = (): boolean => typeof navigator !== 'undefined' && /Windows/i.test(navigator.userAgent)

/**
 * Where clients (Open WebUI, an agent, curl) reach the running server, one click to copy;
 * on Windows, how WSL2 clients reach it (seed 000: the host's address from WSL changes after reboots).
 */
export function ServerAddress(): React.JSX.Element | null {
  const status = useStatusStore((s) => s.status)
  // The endpoint, when it runs, is the one address (the server behind it has a private port).
  const endpoint = useSnapshotStore((s) => (s.snapshot?.endpoint?.listening ? s.snapshot.endpoint : null))
  const problem = useSnapshotStore((s) => s.snapshot?.endpoint?.problem ?? null)
  const [copied, setCopied] = useState(false)
  const server =
    status && status.port !== null && (status.state === 'ready' || status.state === 'sleeping' || status.state === 'loading')
      ? { host: status.host, port: status.port }
      : null
  const where = endpoint ?? server
  if (!where && problem) {
    return (
      <div className="server-address note" data-testid="endpoint-problem">
        The endpoint is not listening: {problem}
      </div>
    )
  }
  if (!where) return null
  const url = endpoint ? endpoint.url : clientBaseUrl(where.host, where.port)
  const copy = async (): Promise<void> => {
    await navigator.clipboard?.writeText(url)
    setCopied(true)
  }
  return (
    <div className="server-address" data-testid="server-address">
      <code data-testid="server-url">{url}</code>{' '}
      <button type="button" className="link" onClick={() => void copy()} data-testid="server-url-copy">
        {copied ? 'Copied' : 'Copy'}
      </button>
      {where.host !== null && !isLoopbackHost(where.host) && (
        <span className="note"> · listening on {where.host}: other machines can connect (with the API key)</span>
      )}
      {onWindows() && (
        <details className="note" data-testid="wsl-hint">
          <summary>From WSL2</summary>
          WSL2 reaches this server at <code>http://127.0.0.1:{where.port}/v1</code> only in mirrored networking: add{' '}
          <code>networkingMode=mirrored</code> under <code>[wsl2]</code> in <code>%UserProfile%\.wslconfig</code>, then run{' '}
          <code>wsl --shutdown</code>. In the default NAT mode the Windows host&apos;s address seen from WSL changes after reboots.
        </details>
      )}
    </div>
  )
}
