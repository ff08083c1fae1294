import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from './helpers/paths'

// Every file Llama Tray keeps in its home folder (settings, profiles, mutes, window state, bench
// reports, engine manifests, ...) is read and written through its store (app/lib/json-store/):
// schema, version, .bak, lock, change events. The one database, history.sqlite, has its own owner
// (app/history/history-db.ts: SQLite's file layer, behind the same cross-process lock). This counts the production files that still open a
// home file themselves, so that the count can only go down.

/** The node:fs functions that read or write a file's contents, and the atomic writer of app/lib. */
const FS_IO = new Set(['readFile', 'readFileSync', 'writeFile', 'writeFileSync', 'appendFile', 'appendFileSync'])
const STREAM_IO = new Set(['createReadStream', 'createWriteStream', 'open', 'openSync'])
const NAMED_IMPORT = /import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+['"]([^'"]+)['"]/g

/** Production files of app/ and main/ that read or write files, with the functions they import for it. */
function filesDoingIo(): Map<string, string[]> {
  const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard', 'app', 'main'], { cwd: REPO_ROOT, encoding: 'utf8' })
    .split('\n')
    .filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f) && existsSync(join(REPO_ROOT, f)))
  const out = new Map<string, string[]>()
  for (const file of files) {
    const used: string[] = []
    for (const [, names, from] of readFileSync(join(REPO_ROOT, file), 'utf8').matchAll(NAMED_IMPORT)) {
      const imported = names!.split(',').map((n) =>
        n
          .trim()
          .split(/\s+as\s+/)[0]!
          .replace(/^type\s+/, ''),
      )
      if (/^(node:)?fs(\/promises)?$/.test(from!)) used.push(...imported.filter((n) => FS_IO.has(n) || STREAM_IO.has(n)))
      if (/lib\/atomic-write$/.test(from!)) used.push(...imported.filter((n) => n === 'writeFileAtomic'))
    }
    if (used.length > 0) out.set(file, used)
  }
  return out
}

/** Files that do I/O on something other than a home file, and why that is not one. */
const NOT_HOME_FILES: Readonly<Record<string, string>> = {
  'app/lib/json-store/file-lock.ts': "the store's lock (pid files beside the lock folder)",
  'app/lib/atomic-write.ts': "the store's atomic write",
  'app/cli/commands/profiles.ts': 'a command line file the user names (--file)',
  'app/history/history-export.ts': "the usage history's export, at the path the user chose (--out, the save dialog)",
  'app/diagnostics/write-zip.ts': 'the bundle at the path the user chose',
  'app/diagnostics/log-tail.ts': 'logs, appended by one writer and read for their end: not stores',
  'app/supervisor/log-file.ts': 'logs (as above)',
  'app/engines/archive-writer.ts': "a release archive's files, extracted",
  'app/engines/safe-extract.ts': 'a release archive, read',
  'app/engines/file-hashes.ts': "an engine's binaries, hashed",
  'app/lib/download/download-file.ts': 'downloads (engines, models)',
  'app/lib/download/part-file.ts': "a download's .part file and its resume record",
  'app/models/hf-cache.ts': "the Hugging Face cache (huggingface_hub's layout, not ours)",
  'app/fit/gguf-header.ts': 'GGUF models, read',
  'app/supervisor/preflight.ts': 'the model and binary a launch names, checked',
  'app/supervisor/process-identity.ts': '/proc',
  'app/supervisor/port-holder/linux-port-holder.ts': '/proc',
  'app/telemetry/cpu/linux-processes.ts': '/proc',
  'app/telemetry/cpu/system-cpu.ts': '/proc/stat',
  'app/lib/read-regular-file.ts':
    "the one reader of regular files with a size cap: the store's files and the key files the user's profiles and serve's --api-key-file name",
  'app/cli/last-resort.ts': "the CLI's own log of an unexpected error (appended): not a store",
  'app/supervisor/release-pipes.ts': '/proc',
  'app/platform/process-stopped.ts': '/proc',
  'app/platform/sysfs.ts': '/sys (or LLAMA_TRAY_SYSFS): power supplies and the GPU power state',
  'main/app-protocol.ts': "the dashboard's own files (out/renderer)",
}

/**
 * The production files that still open a home file directly: at most 2. Both are the supervisor's
 * handoffs to and about its child rather than stores: the 0600 key file llama-server reads
 * (plain text, written once with 'wx'), and the per-process pid records of <home>/run/.
 */
const OPENS_HOME_FILES = ['app/supervisor/api-key-file.ts', 'app/supervisor/pid-file.ts']

describe('home files have one owner', () => {
  it('every production file that reads or writes files is either a store, a known non-home use, or on the short list', () => {
    const io = filesDoingIo()
    const unexplained = [...io.keys()].filter((f) => !(f in NOT_HOME_FILES) && !OPENS_HOME_FILES.includes(f))
    expect(unexplained, 'open home files through a store (app/lib/json-store/), or say here why the file is not a home file').toEqual([])
    expect([...io.keys()].filter((f) => OPENS_HOME_FILES.includes(f)).sort()).toEqual(OPENS_HOME_FILES)
    expect(OPENS_HOME_FILES.length).toBeLessThanOrEqual(2)
  })

  it('the lists name only files that exist and do I/O (a moved file is not left behind)', () => {
    const io = filesDoingIo()
    expect(Object.keys(NOT_HOME_FILES).filter((f) => !io.has(f))).toEqual([])
  })
})
