import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import type { Warning } from '../../../app/contract/warnings'
import { WarningItem } from './WarningsBanner'

const SLOTS: Warning = {
  id: 'lint.auto-slots@qwen',
  level: 'warn',
  headline: 'With -c 65536 and no -np, this llama-server defaults to 4 slots sharing that context, so compute buffers are sized for 4.',
  reason: 'For one user, set -np 1.',
  fix: { label: 'Use one slot (-np 1)', removeArgs: [], addArgs: ['-np', '1'] },
  profileId: 'qwen',
}

const render = (warning: Warning): string => renderToStaticMarkup(<WarningItem warning={warning} onResult={() => undefined} />)

describe('a banner warning', () => {
  it('shows the headline, with the reason behind a closed "Why?"', () => {
    const html = render(SLOTS)
    expect(html).toContain(`<span class="warning-message">${SLOTS.headline} <button`)
    expect(html).toMatch(/<button type="button" class="link" aria-expanded="false" data-testid="warning-why">Why\?<\/button>/)
    // One click away, not in view: the fix's flag shows once, in its label.
    expect(html).not.toContain(SLOTS.reason)
    expect(html.replace(/<[^>]*>/g, '').split('-np 1').length - 1).toBe(1)
  })

  it('has no "Why?" when the headline says it all', () => {
    const html = render({ ...SLOTS, reason: '' })
    expect(html).toContain(`<span class="warning-message">${SLOTS.headline}</span>`)
    expect(html).not.toContain('warning-why')
  })
})
