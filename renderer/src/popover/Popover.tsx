import { GameNote } from '../components/GameNote'
import { SavedNotRunningNote } from '../components/SavedNotRunningNote'
import { PopoverFigures } from './PopoverFigures'
import { PopoverNotice } from './PopoverNotice'
import { PopoverState } from './PopoverState'
import { ProfileSwitcher } from './ProfileSwitcher'

/**
 * The tray popover (360 × 520 px, renderer/popover.html): the state, live
 * figures, the one thing to act on, the profiles and Start/Stop. It never
 * scrolls as a whole; only a long profile list scrolls inside its own box.
 */
export function Popover(): React.JSX.Element {
  return (
    <main className="popover" aria-label="Llama Tray">
      <PopoverState />
      <SavedNotRunningNote />
      <GameNote />
      <PopoverFigures />
      <PopoverNotice />
      <ProfileSwitcher />
    </main>
  )
}
