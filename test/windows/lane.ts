import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { closeSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CLI, REPO_ROOT } from '../helpers/paths'
import { snapshotSchema } from '../helpers/snapshot-schema'

// The Windows lane: Windows Node (node.exe) runs the built CLI under Wine,
// supervising a mingw-built llama-server.exe. scripts/windows-lane.mjs sets the
// rig up (npm test runs it first) and describes it in lane.json.

export interface Lane {
  /** WINEPREFIX: drive C: is <prefix>/drive_c. */
  readonly prefix: string
  readonly win: {
    readonly node: string
    readonly cliDir: string
    readonly llamaServer: string
    readonly discord: string
    readonly models: string
  }
  readonly cliBuiltAt: number
}

/** The lane, or why this machine has none (the Windows tests are then skipped with that reason). */
export function loadLane(): Lane | { readonly unavailable: string } {
  const r = spawnSync(process.execPath, [join(REPO_ROOT, 'scripts', 'windows-lane.mjs'), '--manifest'], { encoding: 'utf8' })
  const file = r.stdout.trim()
  if (!file || !existsSync(file))
    return { unavailable: 'the Windows lane is not set up: run `node scripts/windows-lane.mjs` (npm test does)' }
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as Lane | { unavailable: string }
  if ('unavailable' in manifest) return manifest
  if (!existsSync(CLI) || statSync(CLI).mtimeMs !== manifest.cliBuiltAt) {
    throw new Error('the CLI staged in the Wine prefix is not the one in out/cli: run `node scripts/windows-lane.mjs` again after building')
  }
  return manifest
}

/** C:\a\b → <prefix>/drive_c/a/b (the Linux side of a path inside the prefix). */
export function linuxPath(lane: Lane, windowsPath: string): string {
  const m = /^C:\\(.*)$/i.exec(windowsPath)
  if (!m) throw new Error(`not on drive C: ${windowsPath}`)
  return join(lane.prefix, 'drive_c', ...(m[1] as string).split('\\'))
}

/**
 * Gives the prefix a drive `letter` backed by a fresh Linux temp folder (for
 * paths on another drive than C:). Returns its Linux path; the drive stays
 * mapped until `unmapDrive`.
 */
export function mapDrive(lane: Lane, letter: string): string {
  const dir = mkdtempSync(join(tmpdir(), `llama-tray-wine-${letter}-`))
  const link = join(lane.prefix, 'dosdevices', `${letter.toLowerCase()}:`)
  rmSync(link, { force: true })
  symlinkSync(dir, link)
  return dir
}

export function unmapDrive(lane: Lane, letter: string, dir: string): void {
  rmSync(join(lane.prefix, 'dosdevices', `${letter.toLowerCase()}:`), { force: true })
  rmSync(dir, { recursive: true, force: true })
}

export function wineEnv(lane: Lane, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env }
  for (const name of ['DISPLAY', 'WAYLAND_DISPLAY', 'LLAMA_TRAY_HOME', 'XDG_CONFIG_HOME', 'NODE_OPTIONS']) delete env[name]
  return { ...env, WINEPREFIX: lane.prefix, WINEDEBUG: '-all', WINEDLLOVERRIDES: 'mscoree,mshtml=', ...extra }
}

export interface WindowsCliResult {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

export interface WindowsCli {
  /** The Linux process running node.exe (SIGKILL to it is TerminateProcess to the CLI). */
  readonly child: ChildProcess
  readonly done: Promise<WindowsCliResult>
  stdout(): string
  stderr(): string
  /** The --json snapshots printed so far (a half-written last line is left out). */
  snapshots(): ReturnType<typeof snapshotSchema.parse>[]
}

/**
 * Runs the staged CLI with Windows Node under Wine. node.exe's stdout and
 * stderr are files: under Wine a pipe gives EBADF at the first write.
 */
export function startWindowsCli(lane: Lane, args: readonly string[], extraEnv: Record<string, string> = {}): WindowsCli {
  const dir = mkdtempSync(join(tmpdir(), 'llama-tray-wine-cli-'))
  const outFile = join(dir, 'stdout.txt')
  const errFile = join(dir, 'stderr.txt')
  const out = openSync(outFile, 'w')
  const err = openSync(errFile, 'w')
  const child = spawn('wine', [lane.win.node, `${lane.win.cliDir}\\llama-tray.mjs`, ...args], {
    env: wineEnv(lane, extraEnv),
    stdio: ['ignore', out, err],
  })
  closeSync(out)
  closeSync(err)
  const read = (file: string): string => (existsSync(file) ? readFileSync(file, 'utf8') : '')
  let final: WindowsCliResult | null = null
  const parsed: ReturnType<typeof snapshotSchema.parse>[] = []
  let consumed = 0
  const done = new Promise<WindowsCliResult>((resolve) =>
    child.once('exit', (code) => {
      final = { code, stdout: read(outFile), stderr: read(errFile) }
      rmSync(dir, { recursive: true, force: true })
      resolve(final)
    }),
  )
  return {
    child,
    done,
    stdout: () => final?.stdout ?? read(outFile),
    stderr: () => final?.stderr ?? read(errFile),
    snapshots() {
      // Parsed once per line: a long run prints thousands, and tests poll this often.
      const text = this.stdout()
      const end = text.lastIndexOf('\n') + 1
      for (const line of text.slice(consumed, end).split('\n')) if (line.trim() !== '') parsed.push(snapshotSchema.parse(JSON.parse(line)))
      consumed = Math.max(consumed, end)
      return parsed
    },
  }
}

/** Runs a Windows program of the prefix to completion (taskkill, reg…); its output goes to a file. */
export function runWine(lane: Lane, args: readonly string[]): { code: number | null; output: string } {
  const dir = mkdtempSync(join(tmpdir(), 'llama-tray-wine-run-'))
  const file = join(dir, 'out.txt')
  const fd = openSync(file, 'w')
  try {
    const r = spawnSync('wine', [...args], { env: wineEnv(lane), stdio: ['ignore', fd, fd], timeout: 60_000 })
    return { code: r.status, output: readFileSync(file, 'utf8') }
  } finally {
    closeSync(fd)
    rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * The Linux processes of this prefix running the Windows program `image`
 * (e.g. "llama-server.exe"): how a test sees what is left without asking Wine.
 */
export function prefixProcesses(lane: Lane, image: string): number[] {
  const found: number[] = []
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const environ = readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0')
      if (!environ.includes(`WINEPREFIX=${lane.prefix}`)) continue
      // Wine shows a Windows process's own path as argv[0] (the CLI's --cmd mentioning the image is argv[2+]).
      const argv0 = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0')[0] ?? ''
      if ((argv0.split(/[\\/]/).pop() ?? '').toLowerCase() === image.toLowerCase()) found.push(Number(entry))
    } catch {
      // exited meanwhile, or not ours to read
    }
  }
  return found
}
