import { useServerStore } from './server-store'

export function App(): React.JSX.Element {
  const status = useServerStore((s) => s.status)
  if (!status) return <main>Connecting…</main>
  return (
    <main>
      <h1>Llama Tray</h1>
      <p data-testid="server-state">Server: {status.state}</p>
      {status.port !== null && <p>Port {status.port}</p>}
      {status.lastExit?.reason && (
        <p role="alert">
          {status.lastExit.reason}
          {status.lastExit.hint ? ` (${status.lastExit.hint})` : ''}
        </p>
      )}
    </main>
  )
}
