import { Activity, Gauge, History, type LucideIcon, Rocket, ScrollText, Settings, SlidersHorizontal } from 'lucide-react'
import { useEffect, useRef, useState } from 'react'
import { BenchView } from './components/BenchView'
import { FirstRunView } from './components/FirstRunView'
import { HistoryView } from './components/HistoryView'
import { Header } from './components/Header'
import { LogsView } from './components/LogsView'
import { ProfilesView } from './components/ProfilesView'
import { RunningView } from './components/RunningView'
import { SettingsView } from './components/SettingsView'
import { useFirstRunWanted } from './components/use-first-run'
import { WarningsBanner } from './components/WarningsBanner'
import { useFirstRunStore } from './stores/first-run-store'

/** Tab ids (the test ids say tab-<id>) and what they read; Start (the first run) is listed only while it is offered. */
const TABS = ['Start', 'Dashboard', 'Profiles', 'History', 'Logs', 'Settings', 'Bench'] as const
type Tab = (typeof TABS)[number]
const TAB_LABEL: Record<Tab, string> = {
  Start: 'Setup',
  Dashboard: 'Running',
  Profiles: 'Profiles',
  History: 'History',
  Logs: 'Logs',
  Settings: 'Settings',
  Bench: 'Bench',
}
/** Each tab's icon beside its word (named imports: only these icons are bundled). */
const TAB_ICON: Record<Tab, LucideIcon> = {
  Start: Rocket,
  Dashboard: Activity,
  Profiles: SlidersHorizontal,
  History,
  Logs: ScrollText,
  Settings,
  Bench: Gauge,
}

function TabPanel({ tab, onStarted }: { readonly tab: Tab; readonly onStarted: () => void }): React.JSX.Element {
  switch (tab) {
    case 'Start':
      return <FirstRunView onStarted={onStarted} />
    case 'Dashboard':
      return <RunningView />
    case 'Profiles':
      return <ProfilesView />
    case 'History':
      return <HistoryView />
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
  // The first run opens by itself only until the user picks a view.
  const [picked, setPicked] = useState(false)
  const [offered, setOffered] = useState(false)
  const firstRun = useFirstRunWanted()
  const engaged = useFirstRunStore((s) => s.engaged)
  useEffect(() => {
    if (firstRun.wanted && !picked && !offered) {
      setOffered(true)
      setTab('Start')
    }
  }, [firstRun.wanted, picked, offered])
  useEffect(() => {
    // A profile or a server appeared from elsewhere (an import, the CLI): the Running view, unless the user is mid-way.
    if (tab === 'Start' && firstRun.settled && !picked && !engaged) setTab('Dashboard')
  }, [tab, firstRun.settled, picked, engaged])
  const tabs = TABS.filter((t) => t !== 'Start' || offered)
  const choose = (t: Tab): void => {
    setPicked(true)
    setTab(t)
  }
  const buttons = useRef<(HTMLButtonElement | null)[]>([])
  // Arrow keys move between tabs (the WAI-ARIA tabs pattern); Tab moves into the panel.
  const onKey = (e: React.KeyboardEvent, index: number): void => {
    const step = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0
    if (!step) return
    e.preventDefault()
    const next = (index + step + tabs.length) % tabs.length
    choose(tabs[next] as Tab)
    buttons.current[next]?.focus()
  }
  const onStarted = (): void => {
    setOffered(false)
    choose('Dashboard')
  }
  return (
    <div className="app">
      <Header />
      <WarningsBanner />
      <nav className="tabs" role="tablist" aria-label="Views">
        {tabs.map((t, i) => {
          const Icon = TAB_ICON[t]
          return (
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
              onClick={() => choose(t)}
              onKeyDown={(e) => onKey(e, i)}
              data-testid={`tab-${t.toLowerCase()}`}
            >
              <Icon size={16} aria-hidden="true" focusable="false" />
              {TAB_LABEL[t]}
            </button>
          )
        })}
      </nav>
      <main id="panel" role="tabpanel" aria-labelledby={`tab-${tab}`} className="panel">
        <TabPanel tab={tab} onStarted={onStarted} />
      </main>
    </div>
  )
}
