import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import type { Warning } from '../../../app/contract/warnings'
import { findingsLead, SaveFindings } from './SaveFindings'

const finding = (id: string, headline: string, reason: string): Warning => ({
  id,
  level: 'warn',
  headline,
  reason,
  fix: { label: 'Use one slot (-np 1)', removeArgs: [], addArgs: ['-np', '1'] },
})

describe('the warnings beside Save', () => {
  it('shows each headline with its reason as the tooltip, and its fix', () => {
    const html = renderToStaticMarkup(
      <SaveFindings
        findings={[
          finding('lint.auto-slots@q', 'Compute buffers are sized for 4 slots.', 'For one user, set -np 1.'),
          finding('lint.flag-rejected:-vhad@q', 'This binary (buun) has no -vhad.', ''),
        ]}
        onResult={() => undefined}
      />,
    )
    expect(html).toContain('<span class="warning-message" title="For one user, set -np 1.">Compute buffers are sized for 4 slots.</span>')
    // No reason, no empty tooltip.
    expect(html).toContain('<span class="warning-message">This binary (buun) has no -vhad.</span>')
    expect(html.match(/data-testid="save-finding-fix"/g)).toHaveLength(2)
  })

  it('says nothing without findings, and counts them after "Saved."', () => {
    expect(renderToStaticMarkup(<SaveFindings findings={[]} onResult={() => undefined} />)).toBe('')
    expect(findingsLead([finding('a', 'A.', '')])).toBe('1 warning:')
    expect(findingsLead([finding('a', 'A.', ''), finding('b', 'B.', '')])).toBe('2 warnings:')
  })
})
