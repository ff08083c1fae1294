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
  it('shows the headline, the whole warning as its tooltip, and the fix', () => {
    const html = renderToStaticMarkup(<PopoverWarning warning={VRAM} busy={false} onFix={() => undefined} />)
    expect(html).toContain(`<p class="pop-warning-text" title="${VRAM.headline} ${VRAM.reason}">${VRAM.headline}</p>`)
    expect(html).toContain('<button type="button" data-testid="warning-fix">Use --n-cpu-moe 38</button>')
  })

  it('has no fix button without a fix, and says so while one applies', () => {
    expect(renderToStaticMarkup(<PopoverWarning warning={{ ...VRAM, fix: null }} busy={false} onFix={() => undefined} />)).not.toContain(
      '<button',
    )
    expect(renderToStaticMarkup(<PopoverWarning warning={VRAM} busy onFix={() => undefined} />)).toContain('Applying…')
  })
})
