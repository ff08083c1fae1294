import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { checkImport } from './import-checks'
import { importArgv, ImportError } from './import-command'

// Issue #42 (Low): import stored a -m that is a FIFO, /dev/zero or a folder without --force.
const scratch = mkdtempSync(join(tmpdir(), 'llama-tray-import-checks-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

const fifo = join(scratch, 'model.gguf')
execFileSync('mkfifo', [fifo])
const folder = join(scratch, 'folder.gguf')
mkdirSync(folder)

describe('import refuses a -m that is not a regular file, unless forced', () => {
  it.each([
    ['a FIFO', fifo, 'a FIFO (a named pipe)'],
    ['a device', '/dev/zero', 'a device'],
    ['a folder', folder, 'a folder'],
  ])('%s is refused in one sentence naming what it is; --force stores it', async (_what, path, kind) => {
    const profile = importArgv(['llama-server', '-m', path])
    const refused = await checkImport(profile).catch((err: unknown) => err)
    expect(refused).toBeInstanceOf(ImportError)
    expect((refused as Error).message).toBe(
      `The -m path ${path} is ${kind}, not a model file: check the -m path, or add --force to store it anyway.`,
    )
    expect((await checkImport(profile, { force: true })).model).toBe(path)
  })
})
