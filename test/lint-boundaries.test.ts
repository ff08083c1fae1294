import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'

// Proves the layout rules are enforced by lint, not by goodwill.
const eslint = new ESLint({ cwd: process.cwd() })

async function restrictedImportErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath })
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message)
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
    ['main/index.ts', "import { ServerSupervisor } from '../app/supervisor/supervisor'"],
  ])('%s may %s', async (file, code) => {
    expect(await restrictedImportErrors(file, `${code}\nexport const used = 1\n`)).toEqual([])
  })
})
