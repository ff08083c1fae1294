import { Charts } from './Charts'
import { Glance } from './Glance'
import { PinnedServers } from './PinnedServers'

/** The first view: the figures that say whether the model runs well, then the charts. */
export function RunningView(): React.JSX.Element {
  return (
    <div className="running-view">
      <Glance />
      <PinnedServers />
      <Charts />
    </div>
  )
}
