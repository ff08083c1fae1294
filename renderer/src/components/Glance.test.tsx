import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it, vi } from 'vitest'
import type { Snapshot } from '../../../app/contract/snapshot'

// The stores as the tiles read them (a selector over the latest snapshot); server rendering would read their initial state.
const state: { snapshot: Snapshot | null } = { snapshot: null }
vi.mock('../stores/snapshot-store', () => ({ useSnapshotStore: (select: (s: typeof state) => unknown) => select(state) }))
vi.mock('../stores/settings-store', () => ({
  useSettingsStore: (select: (s: { settings: null }) => unknown) => select({ settings: null }),
}))
const { Glance } = await import('./Glance')

const last = { predictedTokensPerSecond: 24.5, promptTokensPerSecond: 310, draftAcceptance: null, predictedTokens: 400 }
const text = (html: string): string => html.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ')

describe("the Running view's last-request tile", () => {
  it("shows the last request's GPU energy and the profile's energy per 1,000 generated tokens (J, or Wh from 3,600 J)", () => {
    state.snapshot = { generation: { last: { ...last, energyJ: 48 }, rolling: { joulesPer1000Tokens: 5400 } } } as unknown as Snapshot
    const html = renderToStaticMarkup(<Glance />)
    expect(text(html)).toContain('GPU energy 48 J')
    expect(text(html)).toContain('Per 1,000 tokens 1.5 Wh')
    expect(html).toContain('data-testid="energy-per-thousand"')
  })

  it('shows no energy figures where no GPU energy was measured', () => {
    state.snapshot = { generation: { last: { ...last, energyJ: null }, rolling: { joulesPer1000Tokens: null } } } as unknown as Snapshot
    const html = renderToStaticMarkup(<Glance />)
    expect(html).not.toContain('last-energy')
    expect(html).not.toContain('energy-per-thousand')
  })
})
