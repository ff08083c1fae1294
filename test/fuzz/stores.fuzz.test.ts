import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { DEFAULT_SETTINGS } from '../../app/contract/settings'
import { importCommand } from '../../app/profiles/import-command'
import { PROFILES_FILE, ProfileStore } from '../../app/profiles/store'
import { SETTINGS_FILE, SettingsStore } from '../../app/settings/settings-store'
import { FUZZ_RUNS, FUZZ_TIMEOUT_MS, WorstCase } from './fuzz-runs'

// Through the stores' public API only (open, file, health, messages, settings, update): their code is being rewritten.

const validProfiles = JSON.stringify(
  {
    version: 1,
    activeProfileId: null,
    profiles: [importCommand('llama-server -m a.gguf -c 4096 --n-cpu-moe 20 --foo bar', { name: 'A' })],
  },
  null,
  2,
)
const validSettings = JSON.stringify({ ...DEFAULT_SETTINGS, modelDirs: ['/m'] }, null, 2)

/** Text a damaged, hand-edited or hostile file could hold: any JSON, a valid file with edits, or any string. */
function fileText(valid: string): fc.Arbitrary<string> {
  const edit = fc.record({
    at: fc.nat(),
    cut: fc.nat({ max: 40 }),
    insert: fc.oneof(
      fc.string({ unit: 'binary', maxLength: 12 }),
      fc.constantFrom('\u0000', '\u001b[31m', '"', '}', ']', ',', '-1', '1e999', 'null', '"__proto__"', '{"__proto__":{"x":1}}'),
    ),
  })
  const edited = fc.array(edit, { minLength: 1, maxLength: 4 }).map((edits) =>
    edits.reduce((text, e) => {
      const at = e.at % (text.length + 1)
      return text.slice(0, at) + e.insert + text.slice(at + e.cut)
    }, valid),
  )
  return fc.oneof(edited, fc.json(), fc.string({ unit: 'binary', maxLength: 200 }))
}

async function inFreshHome(job: (home: string) => Promise<void>): Promise<void> {
  const home = await mkdtemp(join(tmpdir(), 'llama-tray-fuzz-store-'))
  try {
    await job(home)
  } finally {
    await rm(home, { recursive: true, force: true })
  }
}

/** What a store set aside must be the file as it was, byte for byte: no data lost. */
async function expectKeptAside(home: string, name: string, bytes: Buffer): Promise<void> {
  const aside = (await readdir(home)).filter((f) => f.startsWith(`${name}.corrupt-`))
  expect(aside).toHaveLength(1)
  expect((await readFile(join(home, aside[0] as string))).equals(bytes)).toBe(true)
}

function isJsonObject(bytes: Buffer): boolean {
  try {
    const value: unknown = JSON.parse(bytes.toString('utf8'))
    return value !== null && typeof value === 'object' && !Array.isArray(value)
  } catch {
    return false
  }
}

describe('fuzzing the profile and settings files', () => {
  it(
    'ProfileStore.open never throws; a file it cannot read is kept aside unchanged',
    async () => {
      const worst = new WorstCase('profiles file')
      await fc.assert(
        fc.asyncProperty(fileText(validProfiles), (text) =>
          inFreshHome(async (home) => {
            const bytes = Buffer.from(text) // (a lone surrogate becomes U+FFFD on disk, as from any editor)
            await writeFile(join(home, PROFILES_FILE), bytes)
            const store = await worst.measure(JSON.stringify(text).slice(0, 60), () => ProfileStore.open(home))
            expect(Array.isArray(store.file.profiles)).toBe(true)
            if (store.health === 'quarantined') await expectKeptAside(home, PROFILES_FILE, bytes)
            else expect(['ok', 'read-only', 'missing', 'recovered-from-backup']).toContain(store.health)
          }),
        ),
        { numRuns: FUZZ_RUNS },
      )
      worst.report()
    },
    FUZZ_TIMEOUT_MS,
  )

  it(
    'SettingsStore.open never throws; a file that is not a JSON object is kept aside unchanged; update answers any value',
    async () => {
      const worst = new WorstCase('settings file')
      await fc.assert(
        fc.asyncProperty(fileText(validSettings), fc.jsonValue(), (text, change) =>
          inFreshHome(async (home) => {
            const bytes = Buffer.from(text)
            await writeFile(join(home, SETTINGS_FILE), bytes)
            const store = await worst.measure(JSON.stringify(text).slice(0, 60), () => SettingsStore.open(home))
            expect(Object.keys(store.settings).sort()).toEqual(Object.keys(DEFAULT_SETTINGS).sort())
            // A bad field is a notice and falls back to its default; only a file that is not a JSON object is set aside.
            const aside = (await readdir(home)).filter((f) => f.startsWith(`${SETTINGS_FILE}.corrupt-`))
            if (aside.length > 0 || !isJsonObject(bytes)) await expectKeptAside(home, SETTINGS_FILE, bytes)
            const result = await store.update(change)
            if (!result.ok)
              expect(result.error.sentence).toMatch(/^(The \w+ setting takes .*|There is no setting .*|A settings change must be .*)\.$/s)
          }),
        ),
        { numRuns: FUZZ_RUNS },
      )
      worst.report()
    },
    FUZZ_TIMEOUT_MS,
  )
})
