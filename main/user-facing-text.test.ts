import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

// Users have never heard of the project's "seeds" (the user reports behind the
// rules): what main shows (tray, notifications, dialogs) says what was measured
// and where instead. Comments may name them; strings may not.
const mainDir = dirname(fileURLToPath(import.meta.url))
const SEEDS = /\bseeds?\b/i

/** Every string and template text in a TypeScript source (comments excluded), parsed by TypeScript itself. */
function strings(file: string, code: string): string[] {
  const found: string[] = []
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) found.push(node.text)
    ts.forEachChild(node, visit)
  }
  visit(ts.createSourceFile(file, code, ts.ScriptTarget.Latest, true))
  return found
}

describe('text main shows to users', () => {
  it('never mentions seeds', () => {
    const hits = readdirSync(mainDir)
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
      .flatMap((file) =>
        strings(file, readFileSync(join(mainDir, file), 'utf8'))
          .filter((s) => SEEDS.test(s))
          .map((s) => `${file}: ${s}`),
      )
    expect(hits).toEqual([])
  })

  it('the check finds such a string, in a literal or a template, and skips comments', () => {
    const code = '// seed 000 found this\nnotify(\'as seen in seed 000\', `the ${n} seed users`, "app://x") /* seeds */'
    expect(strings('x.ts', code).filter((s) => SEEDS.test(s))).toEqual(['as seen in seed 000', ' seed users'])
  })
})
