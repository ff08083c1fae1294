import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The repo root (app/metrics/testing → ../../..). */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..')
/** CI clones the repo with shared/ beside it. */
export const fixturesDir = resolve(repoRoot, '..', 'shared', 'fixtures')
export const modelsDir = join(fixturesDir, 'models')

export function fixtureText(...parts: string[]): string {
  return readFileSync(join(fixturesDir, ...parts), 'utf8')
}

export function fixtureJson(...parts: string[]): unknown {
  return JSON.parse(fixtureText(...parts)) as unknown
}

/** Every real log in the fixtures: mainline logs and both forks' stdout/stderr captures. */
export function allFixtureLogs(): { name: string; text: string }[] {
  const out: { name: string; text: string }[] = []
  for (const f of readdirSync(join(fixturesDir, 'llama-server', 'logs'))) {
    if (f.endsWith('.log')) out.push({ name: `llama-server/logs/${f}`, text: fixtureText('llama-server', 'logs', f) })
  }
  for (const fork of ['buun', 'ik']) {
    for (const f of readdirSync(join(fixturesDir, 'llama-server-forks', fork))) {
      // The whole-run captures only (the .until_ready/... splits repeat them).
      if (/\.(stderr|stdout)\.txt$/.test(f)) out.push({ name: `${fork}/${f}`, text: fixtureText('llama-server-forks', fork, f) })
    }
  }
  return out
}

export function linesOf(text: string): string[] {
  return text.split(/\r?\n/)
}
