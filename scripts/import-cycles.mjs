#!/usr/bin/env node
// Counts import cycles inside app/: between files, and between app/'s folders
// (app/fit/x.ts importing app/profiles/y.ts is an edge fit → profiles).
// Every static import counts, type-only ones too (they are dependencies all
// the same). Tests (*.test.ts) are left out: nothing imports them, and a test
// may reach up the layers. Prints the cycles; exits 1 when there is one.
// Usage: node scripts/import-cycles.mjs [--json] [root]   (test/import-cycles.test.ts runs it with --json)
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'

const EXTENSIONS = ['.ts', '.tsx', '.mts', '/index.ts']

function sourceFiles(dir) {
  const out = []
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path))
    else if (/\.(ts|tsx|mts)$/.test(name) && !/\.test\.tsx?$/.test(name) && !name.endsWith('.d.ts')) out.push(path)
  }
  return out
}

function resolveImport(from, spec, known) {
  if (!spec.startsWith('.')) return null
  const base = resolve(dirname(from), spec)
  for (const candidate of [base, ...EXTENSIONS.map((e) => base + e)]) if (known.has(candidate)) return candidate
  return null
}

/** Strongly connected components of size > 1 (or with a self-edge): each is one cycle group. */
function cycles(graph) {
  let index = 0
  const stack = []
  const onStack = new Set()
  const idx = new Map()
  const low = new Map()
  const groups = []
  const visit = (v) => {
    idx.set(v, index)
    low.set(v, index++)
    stack.push(v)
    onStack.add(v)
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v), low.get(w)))
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)))
    }
    if (low.get(v) === idx.get(v)) {
      const group = []
      let w
      do {
        w = stack.pop()
        onStack.delete(w)
        group.push(w)
      } while (w !== v)
      if (group.length > 1 || (graph.get(v) ?? new Set()).has(v)) groups.push(group.sort())
    }
  }
  for (const v of [...graph.keys()].sort()) if (!idx.has(v)) visit(v)
  return groups
}

/** The import graph of app/ and its cycles, file-level and folder-level. */
export function importCycles(root) {
  const app = join(root, 'app')
  const files = sourceFiles(app)
  const known = new Set(files)
  const fileGraph = new Map()
  const folderGraph = new Map()
  const folderOf = (f) =>
    relative(app, f)
      .split(sep)[0]
      .replace(/\.tsx?$/, '')
  for (const file of files) {
    const imports = ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles
    const targets = new Set()
    for (const { fileName } of imports) {
      const target = resolveImport(file, fileName, known)
      if (target) targets.add(target)
    }
    const rel = (f) => relative(root, f)
    fileGraph.set(rel(file), new Set([...targets].map(rel)))
    const from = folderOf(file)
    if (!folderGraph.has(from)) folderGraph.set(from, new Set())
    for (const t of targets) if (folderOf(t) !== from) folderGraph.get(from).add(folderOf(t))
  }
  return { files: cycles(fileGraph), folders: cycles(folderGraph), folderGraph }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2)
  const json = args.includes('--json')
  const root = resolve(args.find((a) => a !== '--json') ?? join(dirname(fileURLToPath(import.meta.url)), '..'))
  const { files, folders, folderGraph } = importCycles(root)
  if (json) {
    const graph = Object.fromEntries([...folderGraph].sort().map(([k, v]) => [k, [...v].sort()]))
    console.log(JSON.stringify({ files, folders, folderGraph: graph }))
    process.exit(0)
  }
  console.log(`import cycles in app/: ${files.length} between files, ${folders.length} between folders`)
  for (const g of files) console.log(`  files:   ${g.join(' ⇄ ')}`)
  for (const g of folders) console.log(`  folders: ${g.join(' ⇄ ')}`)
  process.exitCode = files.length + folders.length > 0 ? 1 : 0
}
