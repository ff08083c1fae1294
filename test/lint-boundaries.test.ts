import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'

// Proves the layout rules are enforced by lint, not by goodwill.
// The files linted here do not exist, so no TypeScript project holds them: the rules that need types are off.
const eslint = new ESLint({
  cwd: process.cwd(),
  overrideConfig: [
    {
      languageOptions: { parserOptions: { projectService: false } },
      rules: { '@typescript-eslint/no-floating-promises': 'off', '@typescript-eslint/no-misused-promises': 'off' },
    },
  ],
})

async function restrictedImportErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath })
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message)
}

async function layerErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${code}\nexport const used = 1\n`, { filePath })
  return (result?.messages ?? []).filter((m) => m.ruleId === 'import-x/no-restricted-paths' || m.fatal).map((m) => m.message)
}

describe('lint boundaries', () => {
  it.each([
    ['app/supervisor/x.ts', "import { app } from 'electron'"],
    ['app/cli/x.ts', "import React from 'react'"],
    ['app/lib/x.ts', "import { create } from 'zustand'"],
    ['app/lib/x.ts', "import { thing } from '../../main/index'"],
    ['app/contract/x.ts', "import { readFile } from 'node:fs'"],
    ['app/contract/x.ts', "import { ServerSupervisor } from '../supervisor/supervisor'"],
    ['renderer/src/x.ts', "import { readFile } from 'node:fs'"],
    ['renderer/src/x.ts', "import { ipcRenderer } from 'electron'"],
    ['renderer/src/x.ts', "import { ServerSupervisor } from '../../app/supervisor/supervisor'"],
    ['main/tray.ts', "import { ipcMain } from 'electron'"],
  ])('%s cannot %s', async (file, code) => {
    expect(await restrictedImportErrors(file, `${code}\nexport const used = 1\n`)).not.toEqual([])
  })

  it.each([
    ['app/supervisor/x.ts', "import { spawn } from 'node:child_process'"],
    ['renderer/src/x.ts', "import type { Snapshot } from '../../app/contract/snapshot'"],
    ['main/ipc-main.ts', "import { ipcMain } from 'electron'"],
    ['main/preload.ts', "import { ipcRenderer } from 'electron'"],
    ['main/index.ts', "import { createStandardCore } from '../app/core/create-core'"],
  ])('%s may %s', async (file, code) => {
    expect(await restrictedImportErrors(file, `${code}\nexport const used = 1\n`)).toEqual([])
  })

  describe('layers of app/ (APP_LAYERS in eslint.config.mjs)', () => {
    it.each([
      ['app/fit/x.ts', "import { ProfileStore } from '../profiles/store'"],
      ['app/profiles/x.ts', "import { lintArgs } from '../advisor/rules'"],
      ['app/bench/x.ts', "import { LlamaTrayCore } from '../core/llama-tray-core'"],
      ['app/bench/x.ts', "import { gatherLintInput } from '../advisor/lint-sources'"],
      ['app/core/x.ts', "import { UsageError } from '../cli/cli-error'"],
      ['app/lib/x.ts', "import type { Snapshot } from '../snapshot/build-snapshot'"],
      ['app/telemetry/x.ts', "import { ServerSupervisor } from '../supervisor/supervisor'"],
      ['app/platform/win32/x.ts', "import { readNvml } from '../../telemetry/gpu/nvml'"],
      ['app/platform/win32/x.ts', "import { reapOrphans } from '../../supervisor/orphans'"],
      ['app/lib/x.ts', "import { loadKoffi } from '../platform/koffi'"],
      ['app/bench/x.ts', "import { installEngine } from '../engines/install'"],
      ['app/engines/x.ts', "import { LlamaTrayCore } from '../core/llama-tray-core'"],
      ['app/fit/x.ts', "import { TelemetryService } from '../telemetry/telemetry-service'"],
      ['app/telemetry/x.ts', "import { formatTable } from '../../benchmarks/format-table'"],
      ['app/bench/x.ts', "import { fakeGpuTelemetry } from '../../test/support/bench/fake-gpu'"],
      ['app/core/x.ts', "import { MODELS } from '../../test/helpers/paths'"],
      ['main/x.ts', "import { makeCore } from '../test/support/core/tiny-core'"],
      ['renderer/src/x.ts', "import { REPO_ROOT } from '../../test/helpers/paths'"],
      // Only the core owns the supervisor; the CLI, benches and main use the core's ports.
      ['app/cli/x.ts', "import { ServerSupervisor } from '../supervisor/supervisor'"],
      ['app/bench/x.ts', "import type { ServerSupervisor } from '../supervisor/supervisor'"],
      ['app/profiles/x.ts', "import type { ServerSupervisor } from '../supervisor/supervisor'"],
      ['main/x.ts', "import { ServerSupervisor } from '../app/supervisor/supervisor'"],
    ])('%s cannot %s', async (file, code) => {
      expect(await layerErrors(file, code)).not.toEqual([])
    })

    it.each([
      ['app/cli/x.ts', "import { LlamaTrayCore } from '../core/llama-tray-core'"],
      ['app/core/x.ts', "import { benchProfile } from '../bench/compare'"],
      ['app/engines/x.ts', "import { benchTargets } from '../bench/compare'"],
      ['app/core/x.ts', "import { installEngine } from '../engines/install'"],
      ['app/profiles/x.ts', "import { readGgufModel } from '../fit/gguf-model'"],
      ['app/lib/x.ts', "import type { Snapshot } from '../contract/snapshot'"],
      ['app/platform/win32/x.ts', "import { runTaskkill } from '../../lib/process/taskkill'"],
      ['app/telemetry/x.ts', "import { WindowsProcessSource } from '../platform/win32/toolhelp-processes'"],
      ['app/supervisor/x.ts', "import { terminateWindowsTree } from '../platform/win32/stop-tree'"],
      ['app/bench/x.test.ts', "import { fakeGpuTelemetry } from '../../test/support/bench/fake-gpu'"],
      ['app/fit/x.test.ts', "import { fitCommand } from '../cli/commands/fit'"],
      ['test/support/core/x.ts', "import { MODELS } from '../../helpers/paths'"],
      ['app/core/x.ts', "import { ServerSupervisor } from '../supervisor/supervisor'"],
      ['app/cli/x.ts', "import type { ServerStatus } from '../contract/server-state'"],
      ['test/support/metrics/x.ts', "import { ServerSupervisor } from '../../../app/supervisor/supervisor'"],
    ])('%s may %s', async (file, code) => {
      expect(await layerErrors(file, code)).toEqual([])
    })

    it('forbids import cycles in app/', async () => {
      const config = (await eslint.calculateConfigForFile('app/supervisor/supervisor.ts')) as { rules: Record<string, unknown> }
      expect(config.rules['import-x/no-cycle']).toEqual([2, expect.objectContaining({ ignoreExternal: true })])
    })
  })
})
