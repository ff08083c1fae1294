import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { DEFAULT_HEAVY_APPS, loadHeavyAppList, matchHeavyApps } from './heavy-apps'
import type { ProcessInfo } from '../../platform/process-source'

const p = (pid: number, name: string, cpuMs: number | null = 0): ProcessInfo => ({ pid, name, cpuMs, rssKiB: null })
const dir = mkdtempSync(path.join(tmpdir(), 'heavy-apps-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('heavy apps', () => {
  it('groups every process of an app, sums its CPU and sorts the busiest first', () => {
    const procs = [p(10, 'chrome'), p(11, 'chrome'), p(12, 'Discord.exe'), p(13, 'bash'), p(14, 'steamwebhelper'), p(15, 'eldenring.exe')]
    const shares = new Map<number, number | null>([
      [10, 12.5],
      [11, 2.5],
      [12, 30],
      [13, 90],
      [14, null],
      [15, 40],
    ])
    expect(matchHeavyApps(procs, shares, DEFAULT_HEAVY_APPS, 'linux')).toEqual([
      { name: 'Game (Wine/Proton)', pids: [15], cpuPct: 40 },
      { name: 'Discord', pids: [12], cpuPct: 30 },
      { name: 'Chrome', pids: [10, 11], cpuPct: 15 },
      { name: 'Steam', pids: [14], cpuPct: null },
    ])
  })

  it('counts another llama-server, Ollama or KoboldCpp beside ours, never our own server', () => {
    const procs = [p(100, 'llama-server'), p(200, 'llama-server'), p(300, 'ollama_llama_se'), p(400, 'koboldcpp.exe')]
    const shares = new Map<number, number | null>([
      [100, 180],
      [200, 60],
      [300, 25],
      [400, 5],
    ])
    expect(matchHeavyApps(procs, shares, DEFAULT_HEAVY_APPS, 'linux', new Set([100]))).toEqual([
      { name: 'Another LLM server', pids: [200, 300, 400], cpuPct: 90 },
    ])
    expect(matchHeavyApps([p(100, 'llama-server')], shares, DEFAULT_HEAVY_APPS, 'linux', new Set([100]))).toEqual([])
  })

  it('does not call every Windows .exe a game', () => {
    expect(matchHeavyApps([p(1, 'notepad.exe'), p(2, 'obs64.exe')], new Map(), DEFAULT_HEAVY_APPS, 'win32').map((a) => a.name)).toEqual([
      'OBS',
    ])
  })

  it('reads a user list, and reports a bad one while keeping the built-in list', () => {
    const good = path.join(dir, 'good.json')
    writeFileSync(good, JSON.stringify({ apps: [{ name: 'Blender', processes: ['blender.exe'] }] }))
    expect(loadHeavyAppList(good)).toEqual({
      list: { detectWineGames: true, apps: [{ name: 'Blender', processes: ['blender.exe'] }] },
      problem: null,
    })
    expect(loadHeavyAppList(path.join(dir, 'missing.json'))).toEqual({ list: DEFAULT_HEAVY_APPS, problem: null })
    const badJson = path.join(dir, 'bad.json')
    writeFileSync(badJson, '{ apps: [')
    expect(loadHeavyAppList(badJson)).toMatchObject({ list: DEFAULT_HEAVY_APPS, problem: expect.stringContaining('not valid JSON') })
    const badShape = path.join(dir, 'shape.json')
    writeFileSync(badShape, JSON.stringify({ apps: [{ name: 'X', processes: [] }] }))
    expect(loadHeavyAppList(badShape)).toMatchObject({ list: DEFAULT_HEAVY_APPS, problem: expect.stringContaining('apps.0.processes') })
  })
})
