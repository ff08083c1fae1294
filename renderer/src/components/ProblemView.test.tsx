import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { problem } from '../../../app/contract/problem'
import { ProblemView } from './ProblemView'

describe('ProblemView', () => {
  it('shows the sentence, the fix as a button and the raw details behind "Details"', () => {
    const html = renderToStaticMarkup(
      <ProblemView
        testId="engine-error"
        problem={problem('profile', 'mainline rejects --no-mmap: use -lm none', {
          details: 'llama-server: error: invalid argument: --no-mmap',
          fix: {
            label: 'Use -lm none',
            run: { command: 'profiles:apply-flag-fixes', profileId: 'big' },
            cli: 'llama-tray profiles fix big',
          },
        })}
      />,
    )
    expect(html).toContain('data-testid="engine-error"')
    expect(html).toContain('data-problem-kind="profile"')
    expect(html).toContain('<strong class="error-cause">Mainline rejects --no-mmap: use -lm none.</strong>')
    expect(html).toMatch(/<button type="button" data-testid="problem-fix" title="llama-tray profiles fix big">Use -lm none<\/button>/)
    // A closed <details>: the raw text is one click away, not in view.
    expect(html).toContain(
      '<details class="error-details"><summary>Details</summary><pre>llama-server: error: invalid argument: --no-mmap</pre></details>',
    )
    expect(html).toContain('role="alert"')
  })

  it('shows only the sentence when there is no fix and no details', () => {
    const html = renderToStaticMarkup(<ProblemView problem={problem('busy', 'a benchmark is already running')} alert={false} />)
    expect(html).toContain('A benchmark is already running.')
    expect(html).not.toContain('<button')
    expect(html).not.toContain('Details')
    expect(html).not.toContain('role="alert"')
  })

  it('puts a view’s own buttons beside the sentence', () => {
    const html = renderToStaticMarkup(
      <ProblemView problem={problem('server', 'x')}>
        <button type="button">Dismiss</button>
      </ProblemView>,
    )
    expect(html).toContain('<div class="error-actions"><button type="button">Dismiss</button></div>')
  })
})
