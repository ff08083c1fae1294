import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { FIXTURES, MODELS, REPO_ROOT } from '../../helpers/paths'

export const repoRoot = REPO_ROOT
export const fixturesDir = FIXTURES
export const modelsDir = MODELS

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
