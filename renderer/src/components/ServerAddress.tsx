import { useState } from 'react'
import { clientBaseUrl, isLoopbackHost } from '../../../app/contract/client-url'
import { useStatusStore } from '../stores/status-store'

const onWindows = (): boolean => typeof navigator !== 'undefined' && /Windows/i.test(navigator.userAgent)

/**
 * Where clients (Open WebUI, an agent, curl) reach the running server, one click to copy;
 * on Windows, how WSL2 clients reach it (seed 000: the host's address from WSL changes after reboots).
 */
export function ServerAddress(): React.JSX.Element | null {
  const status = useStatusStore((s) => s.status)
  const [copied, setCopied] = useState(false)
  if (!status || status.port === null || (status.state !== 'ready' && status.state !== 'loading')) return null
  const url = clientBaseUrl(status.host, status.port)
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
      {status.host !== null && !isLoopbackHost(status.host) && <span className="note"> · listening on {status.host}: other machines can connect (with the API key)</span>}
      {onWindows() && (
        <details className="note" data-testid="wsl-hint">
          <summary>From WSL2</summary>
          WSL2 reaches this server at <code>http://127.0.0.1:{status.port}/v1</code> only in mirrored networking: add <code>networkingMode=mirrored</code> under <code>[wsl2]</code> in <code>%UserProfile%\.wslconfig</code>, then run <code>wsl --shutdown</code>. In the default NAT mode the Windows host&apos;s address seen from WSL changes after reboots.
        </details>
      )}
    </div>
  )
}
