import { useRef, useState } from 'react'
import { BenchView } from './components/BenchView'
import { Header } from './components/Header'
import { LogsView } from './components/LogsView'
import { ProfilesView } from './components/ProfilesView'
import { RunningView } from './components/RunningView'
import { SettingsView } from './components/SettingsView'
import { WarningsBanner } from './components/WarningsBanner'

/** Tab ids (the test ids say tab-<id>) and what they read. */
const TABS = ['Dashboard', 'Profiles', 'Logs', 'Settings', 'Bench'] as const
type Tab = (typeof TABS)[number]
const TAB_LABEL: Record<Tab, string> = { Dashboard: 'Running', Profiles: 'Profiles', Logs: 'Logs', Settings: 'Settings', Bench: 'Bench' }

function TabPanel({ tab }: { readonly tab: Tab }): React.JSX.Element {
  switch (tab) {
    case 'Dashboard':
      return <RunningView />
    case 'Profiles':
      return <ProfilesView />
    case 'Logs':
      return <LogsView />
    case 'Settings':
      return <SettingsView />
    case 'Bench':
      return <BenchView />
  }
}

export function App(): React.JSX.Element {
  const [tab, setTab] = useState<Tab>('Dashboard')
  const buttons = useRef<(HTMLButtonElement | null)[]>([])
  // Arrow keys move between tabs (the WAI-ARIA tabs pattern); Tab moves into the panel.
  const onKey = (e: React.KeyboardEvent, index: number): void => {
    const step = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0
    if (!step) return
    e.preventDefault()
    const next = (index + step + TABS.length) % TABS.length
    setTab(TABS[next] as Tab)
    buttons.current[next]?.focus()
  }
  return (
    <div className="app">
      <Header />
      <WarningsBanner />
      <nav className="tabs" role="tablist" aria-label="Views">
        {TABS.map((t, i) => (
          <button
            key={t}
            ref={(el) => {
              buttons.current[i] = el
            }}
            type="button"
            role="tab"
            id={`tab-${t}`}
            aria-selected={tab === t}
            aria-controls="panel"
            tabIndex={tab === t ? 0 : -1}
            onClick={() => setTab(t)}
            onKeyDown={(e) => onKey(e, i)}
            data-testid={`tab-${t.toLowerCase()}`}
          >
            {TAB_LABEL[t]}
          </button>
        ))}
      </nav>
      <main id="panel" role="tabpanel" aria-labelledby={`tab-${tab}`} className="panel">
        <TabPanel tab={tab} />
      </main>
    </div>
  )
}
