import { execFileSync } from 'node:child_process'
import { existsSync, openSync, readFileSync, readSync, closeSync } from 'node:fs'
import { extname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { outsideReferences } from './helpers/outside-references'
import { REPO_ROOT } from './helpers/paths'

// A fresh clone must test on its own: no file may reach for a folder beside the
// checkout (the old ../shared) or anywhere above the repository root.

const CODE = new Set(['.ts', '.tsx', '.mts', '.cts', '.js', '.mjs', '.cjs', '.c', '.sh', '.ps1', '.yml', '.yaml', '.md', '.html', '.css'])

function startsWithShebang(file: string): boolean {
  const fd = openSync(file, 'r')
  try {
    const head = Buffer.alloc(2)
    return readSync(fd, head, 0, 2, 0) === 2 && head.toString() === '#!'
  } finally {
    closeSync(fd)
  }
}

// This file: its examples of what the check catches.
const SELF = 'test/standalone.test.ts'

/** Tracked and new (not ignored) files that hold code, configuration or prose: not docs/, not captured output. */
function sourceFiles(): string[] {
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: REPO_ROOT, encoding: 'utf8' })
  return listed.split('\0').filter((f) => {
    if (!f || f === SELF || f.startsWith('docs/') || !existsSync(join(REPO_ROOT, f))) return false
    const ext = extname(f)
    if (CODE.has(ext)) return true
    if (ext === '.json') return !f.startsWith('test/fixtures/') // captured HTTP bodies are data
    return ext === '' && startsWithShebang(join(REPO_ROOT, f))
  })
}

describe('the repository stands alone', () => {
  const files = sourceFiles()

  it('looks at the sources, scripts, configuration and READMEs', () => {
    expect(files).toEqual(
      expect.arrayContaining([
        'README.md',
        'package.json',
        'eslint.config.mjs',
        '.ci/run',
        'test/helpers/paths.ts',
        'scripts/windows-lane.mjs',
        'scripts/llama-server-build.mjs',
        'benchmarks/run.ts',
        'benchmarks/gpu-calibration/stage.sh',
        'test/fixtures/fake-nvidia-smi/nvidia-smi',
        'test/support/metrics/fixtures.ts',
      ]),
    )
    expect(files.filter((f) => f.startsWith('docs/') || f.endsWith('.log') || f.endsWith('.gguf'))).toEqual([])
  })

  it('no file outside docs/ names ../shared or a path above the repository root', () => {
    const found = files.flatMap((f) => outsideReferences(f, readFileSync(join(REPO_ROOT, f), 'utf8')))
    expect(found).toEqual([])
  })

  it('git ignores no fixture (*.log is ignored elsewhere), so every one is committed', () => {
    const ignored = execFileSync('git', ['ls-files', '--others', '--ignored', '--exclude-standard', 'test/fixtures'], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
    })
    expect(ignored.split('\n').filter(Boolean)).toEqual([])
    expect(existsSync(join(REPO_ROOT, 'test', 'fixtures', 'llama-server', 'logs', 'target_default.log'))).toBe(true)
  })
})

describe('outsideReferences', () => {
  it.each([
    ['app/supervisor/diagnose.test.ts', "const shared = resolve(__dirname, '..', '..', '..', 'shared', 'fixtures')"],
    ['test/support/core/tiny-core.ts', "export const modelsDir = path.resolve(repoRoot, '..', 'shared', 'fixtures', 'models')"],
    ['benchmarks/gpu-calibration/stage.sh', 'cp ../shared/fixtures/models/tiny-target.gguf "$STAGE/"'],
    ['scripts/x.mjs', String.raw`const dir = 'C:\\work\\..\\shared\\fixtures'`],
    ['app/a/b.test.ts', "const dir = resolve(__dirname, '..', '..', '..', 'elsewhere')"],
    ['scripts/x.mjs', "const model = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'models', 'm.gguf')"],
    ['test/x.test.ts', "const dir = join(REPO_ROOT, '..', 'fixtures')"],
    ['benchmarks/run.ts', "const models = resolve(process.cwd(), '..', 'models')"],
    ['benchmarks/run.ts', "const models = resolve('..', 'models')"],
    ['app/fit/x.test.ts', "import { model } from '../../../helpers/paths'"],
    ['test/x.test.ts', "import '../../setup'"],
    ['test/x.test.ts', "const here = new URL('../../x', import.meta.url)"],
    ['app/fit/x.test.ts', "const LOGS = resolve(__dirname, '../../../fixtures/cuda')"],
  ])('flags %s: %s', (file, line) => {
    expect(outsideReferences(file, `// line 1\n${line}\n`)).toEqual([expect.stringMatching(new RegExp(`^${file}:2: `))])
  })

  it.each([
    ['test/support/advisor/fixtures.ts', "import { FIXTURES } from '../../helpers/paths'"],
    ['test/lint-boundaries.test.ts', `    ['test/support/core/x.ts', "import { MODELS } from '../../helpers/paths'"],`],
    ['app/models/pull-model.test.ts', "expect(await readlink(r.path)).toBe(join('..', '..', 'blobs', file.sha256))"],
    ['app/fit/x.test.ts', "const LOGS = resolve(__dirname, '../../test/fixtures/llama-server-cuda-h200')"],
    ['scripts/llama-server-build.mjs', "const m = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'test', 'fixtures', 'models')"],
    ['test/helpers/paths.ts', "export const FIXTURES = join(REPO_ROOT, 'test', 'fixtures')"],
    ['app/platform/win32/pdh-shared-memory.ts', "import { sharedUsageByPid } from './pdh-parsing'"],
    ['eslint.config.mjs', "banned(['../*', '!../contract/*'], 'The contract imports only from app/contract/.')"],
    ['benchmarks/gpu-calibration/stage.sh', 'cd "$(dirname "$0")/../.."'],
  ])('passes %s: %s', (file, line) => {
    expect(outsideReferences(file, line)).toEqual([])
  })
})
