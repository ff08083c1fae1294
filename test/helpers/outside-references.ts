import { posix } from 'node:path'

/**
 * Finds lines of a repository file that reach outside the repository: the old
 * `shared` folder beside the checkout, or a path that climbs above the
 * repository root. A fresh clone has nothing there, so such a line breaks it.
 */

// The parent folder's `shared`, written with / or \, or as two path arguments.
const SHARED = /\.\.[\\/]+shared\b|['"]\.\.['"]\s*,\s*['"]shared['"]/
// A run of '..' arguments and the base it climbs from: the file's own folder, or the repository root (the
// working directory of scripts and tests, or a variable holding the root).
const FILE_DIR =
  String.raw`__dirname|import\.meta\.dirname|(?:path\.)?dirname\((?:fileURLToPath\(import\.meta\.url\)` +
  String.raw`|new URL\(import\.meta\.url\)\.pathname|__filename)\)`
const ROOT = String.raw`process\.cwd\(\)|\brepo\b|\brepoRoot\b|\bREPO_ROOT\b`
const UPS = new RegExp(String.raw`(${FILE_DIR}|${ROOT})((?:\s*,\s*['"]\.\.['"])+)`, 'g')
// resolve() starts from the working directory.
const UPS_FROM_CWD = /\bresolve\(\s*['"]\.\.['"]/
// A quoted relative path ('../../x') resolved against the file's folder: a static import, import(), require(),
// new URL(), or a resolve() or join() from the file's folder.
const RELATIVE_IMPORT = /^\s*(?:import|export)\b[^'"`]*?(?:\bfrom\s+)?['"]((?:\.\.\/)+)/
const RELATIVE_CALL = /\b(?:import|require|resolve|join|new URL)\(\s*(?:[^()'"`]*,\s*)?['"`]((?:\.\.\/)+)/g

/** One `path:line: reason: text` per offending line; relPath is the file's path from the root, with / separators. */
export function outsideReferences(relPath: string, text: string): string[] {
  const folder = posix.dirname(relPath)
  const depth = folder === '.' ? 0 : folder.split('/').length
  const found: string[] = []
  text.split(/\r?\n/).forEach((line, i) => {
    const reason = whyOutside(line, depth)
    if (reason) found.push(`${relPath}:${i + 1}: ${reason}: ${line.trim().slice(0, 160)}`)
  })
  return found
}

function whyOutside(line: string, depth: number): string | null {
  if (SHARED.test(line)) return 'names the shared folder beside the repository'
  for (const [, base = '', ups = ''] of line.matchAll(UPS)) {
    const count = ups.split('..').length - 1
    const allowed = new RegExp(`^(?:${ROOT})$`).test(base) ? 0 : depth
    if (count > allowed) return `climbs ${folders(count)} up from ${base}`
  }
  if (UPS_FROM_CWD.test(line)) return 'climbs above the working directory'
  const relative = [line.match(RELATIVE_IMPORT)?.[1], ...[...line.matchAll(RELATIVE_CALL)].map((m) => m[1])]
  for (const ups of relative) {
    if (ups && ups.length / 3 > depth) return `a relative path ${folders(ups.length / 3)} up`
  }
  return null
}

const folders = (n: number): string => `${n} folder${n === 1 ? '' : 's'}`
