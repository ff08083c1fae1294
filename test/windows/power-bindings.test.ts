import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { builtinModules } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { build } from 'vite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PowerStatus } from '../../app/contract/power'
import type { GpuPowerState } from '../../app/platform/device-power'
import { REPO_ROOT } from '../helpers/paths'
import { linuxPath, loadLane, runWine, type Lane } from './lane'

// Issue #37's Win32 bindings under Windows Node and Wine: smoke tests of the bindings, not of the behaviour. Wine's
// power notifications are stubs (RegisterPowerSettingNotification never notifies, SHQueryUserNotificationState always
// answers "accepts notifications"), so switching on unplugging, the resume check and the GPU-asleep gate are tested
// with fakes (app/core/battery-policy.test.ts, app/core/resume.integration.test.ts, test/integration/cli-gpu-asleep.test.ts).
// Here Llama Tray's own binding code (app/platform/win32/*.ts, bundled into a probe beside the staged CLI for its
// koffi) is loaded by node.exe and asked once.

const found = loadLane()
const lane = 'unavailable' in found ? null : found
const skipReason = 'unavailable' in found ? found.unavailable : ''

interface ProbeAnswer {
  readonly systemPower: { readonly problem: string | null; readonly read: { value: PowerStatus } | { threw: string } }
  readonly devicePower: { readonly problem: string | null; readonly read: { value: GpuPowerState } | { threw: string } }
}

/** What Wine reads from Linux's /sys/class/power_supply: AC unless a Mains supply says offline; the batteries there. */
function linuxPowerSupplies(): { readonly source: 'ac' | 'battery'; readonly batteries: number } {
  const dir = '/sys/class/power_supply'
  const names = existsSync(dir) ? readdirSync(dir) : []
  const read = (name: string, file: string): string => {
    try {
      return readFileSync(join(dir, name, file), 'utf8').trim()
    } catch {
      return ''
    }
  }
  const mains = names.filter((n) => read(n, 'type') === 'Mains')
  const offline = mains.length > 0 && mains.every((n) => read(n, 'online') === '0')
  return { source: offline ? 'battery' : 'ac', batteries: names.filter((n) => read(n, 'type') === 'Battery').length }
}

let answer: ProbeAnswer | null = null
const staged: string[] = []

beforeAll(async () => {
  if (!lane) return
  const out = mkdtempSync(join(tmpdir(), 'llama-tray-power-probe-'))
  try {
    await build({
      configFile: false,
      logLevel: 'warn',
      build: {
        ssr: join(REPO_ROOT, 'test', 'windows', 'probes', 'power-probe.ts'),
        outDir: out,
        emptyOutDir: true,
        target: 'node20',
        rollupOptions: {
          external: [...builtinModules, ...builtinModules.map((m) => `node:${m}`), 'koffi'],
          output: { format: 'es', entryFileNames: 'power-probe.mjs' },
        },
      },
    })
    // Its own name beside the staged CLI (another test run may stage at the same time): koffi resolves from there.
    const name = `power-probe-${process.pid}.mjs`
    const target = linuxPath(lane as Lane, `${(lane as Lane).win.cliDir}\\${name}`)
    copyFileSync(join(out, 'power-probe.mjs'), target)
    staged.push(target)
    const run = runWine(lane, [lane.win.node, `${lane.win.cliDir}\\${name}`])
    if (run.code !== 0) throw new Error(`the probe failed (exit ${run.code}): ${run.output}`)
    answer = JSON.parse(run.output.trim().split('\n').at(-1) as string) as ProbeAnswer
  } finally {
    rmSync(out, { recursive: true, force: true })
  }
}, 300_000)
afterAll(() => {
  for (const file of staged) rmSync(file, { force: true })
})

describe.skipIf(!lane)(`the Win32 power bindings under Windows Node and Wine${lane ? '' : ` (skipped: ${skipReason})`}`, () => {
  it(
    'GetSystemPowerStatus (kernel32) binds and reads what Wine implements for real: the source from Linux /sys, the batteries ' +
      'there, battery saver off (Wine always says SystemStatusFlag 0)',
    () => {
      const linux = linuxPowerSupplies()
      expect(answer?.systemPower.problem).toBeNull()
      expect(answer?.systemPower.read).toEqual({
        value: {
          source: linux.source,
          batteryPercent: linux.batteries === 0 ? null : expect.any(Number),
          charging: linux.batteries === 0 ? false : expect.any(Boolean),
          saver: false,
        },
      })
    },
  )

  it(
    "CfgMgr32's DEVPKEY_Device_PowerData read binds (CM_Get_Device_ID_List*, CM_Locate_DevNodeW, CM_Get_DevNode_PropertyW) and, " +
      'with no NVIDIA display adapter under Wine, answers unknown without throwing (the GPU-asleep gate then reads the GPU as before)',
    () => {
      expect(answer?.devicePower.problem).toBeNull()
      expect(answer?.devicePower.read).toEqual({ value: { kind: 'unknown', detail: null } })
    },
  )
})
