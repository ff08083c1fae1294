import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import type { Warning } from '../../../app/contract/warnings'
import { PopoverWarning } from './PopoverNotice'

const VRAM: Warning = {
  id: 'live.vram-low@qwen',
  level: 'warn',
  headline: 'Free VRAM on GPU 0 is 740 MiB, under the 1536 MiB headroom: generation may slow down several times.',
  reason: 'On an RTX 4060 Laptop (8 GB) generation fell to ~7 tok/s at ~740 MB free.',
  fix: { label: 'Use --n-cpu-moe 38', removeArgs: ['--n-cpu-moe'], addArgs: ['--n-cpu-moe', '38'] },
}

describe("the popover's warning", () => {
  it('shows the headline with its reason behind a closed "Why?" (the banner\'s toggle), and the fix', () => {
    const html = renderToStaticMarkup(<PopoverWarning warning={VRAM} busy={false} onFix={() => undefined} />)
    expect(html).toContain(`<span class="pop-warning-text">${VRAM.headline} <button`)
    expect(html).toMatch(/<button type="button" class="link" aria-expanded="false" data-testid="warning-why">Why\?<\/button>/)
    expect(html).not.toContain(VRAM.reason)
    expect(html).toContain('<button type="button" data-testid="warning-fix">Use --n-cpu-moe 38</button>')
    expect(html).not.toContain('warning-fix-cost')
  })

  it("names the fix's cost in tok/s beside its button where it is known", () => {
    const costed = { ...VRAM, fix: { ...VRAM.fix!, cost: 'about 0.8 tok/s slower (estimate)' } }
    const html = renderToStaticMarkup(<PopoverWarning warning={costed} busy={false} onFix={() => undefined} />)
    expect(html).toContain('<span class="fix-cost" data-testid="warning-fix-cost">about 0.8 tok/s slower (estimate)</span>')
  })

  it('has no fix button without a fix, and says so while one applies', () => {
    expect(renderToStaticMarkup(<PopoverWarning warning={{ ...VRAM, fix: null }} busy={false} onFix={() => undefined} />)).not.toContain(
      'warning-fix',
    )
    expect(renderToStaticMarkup(<PopoverWarning warning={VRAM} busy onFix={() => undefined} />)).toContain('Applying…')
  })
})
