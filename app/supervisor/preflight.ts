import { constants } from 'node:fs'
import { access, open, stat } from 'node:fs/promises'
import { basename, delimiter, extname, isAbsolute, join } from 'node:path'
import type { FailureKind } from '../contract/server-state'
import { lastValue } from '../contract/flag-args'
import { exposedListenerProblem, unsendableKeyProblem } from './host-guard'
import { DRAFT_MODEL_FLAGS, MODEL_FLAGS } from './launch-args'

export interface PreflightFailure {
  readonly kind: FailureKind
  readonly reason: string
  readonly hint: string
  /** The file it is about, for the details and for a fix that finds or picks another (sentences name only its base name). */
  readonly path?: string
}

const GGUF_MAGIC = Buffer.from('GGUF', 'ascii')

/** Resolves a bare command name through PATH (and PATHEXT on Windows), like a shell would, without one. */
export async function resolveExecutable(
  exe: string,
  env: NodeJS.ProcessEnv = process.env,
  platform = process.platform,
): Promise<string | null> {
  const candidates: string[] = []
  const exts = platform === 'win32' ? ['', ...(env.PATHEXT ?? '.EXE').split(';').filter((e) => e.toUpperCase() === '.EXE')] : ['']
  if (isAbsolute(exe) || exe.includes('/') || (platform === 'win32' && exe.includes('\\'))) {
    for (const ext of exts) candidates.push(exe + ext)
  } else {
    for (const dir of (env.PATH ?? '').split(delimiter).filter(Boolean)) for (const ext of exts) candidates.push(join(dir, exe + ext))
  }
  return (await findExecutable(candidates)).found
}

/** The first candidate that is a file; else the first that exists but this user may not reach (EACCES/EPERM), if any. */
async function findExecutable(candidates: readonly string[]): Promise<{ found: string | null; denied: string | null }> {
  let denied: string | null = null
  for (const c of candidates) {
    try {
      if ((await stat(c)).isFile()) return { found: c, denied: null }
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code
      if (denied === null && (code === 'EACCES' || code === 'EPERM')) denied = c
    }
  }
  return { found: null, denied }
}

async function checkExecutable(exe: string, platform: NodeJS.Platform): Promise<PreflightFailure | string> {
  const ext = extname(exe).toLowerCase()
  if (ext === '.bat' || ext === '.cmd') {
    return {
      kind: 'batch-file',
      reason: `${basename(exe)} is a batch file; Llama Tray starts llama-server directly, without a shell`,
      hint: "point the profile at llama-server.exe itself and move the batch file's flags into the profile",
      path: exe,
    }
  }
  const resolved = await resolveExecutable(exe, process.env, platform)
  if (!resolved) {
    const denied = isAbsolute(exe) || exe.includes('/') || exe.includes('\\') ? (await findExecutable([exe])).denied : null
    // There, but a folder on its path (or the file) may not be read by this user: "not found" would send them looking.
    if (denied !== null)
      return {
        kind: 'binary-not-executable',
        reason: `llama-server at ${denied} cannot be read by this user (permission denied)`,
        hint: 'check the permissions of the file and of its folders',
      }
    return {
      kind: 'binary-missing',
      reason: `the llama-server binary ${basename(exe)} was not found`,
      hint: 'check the path, or install llama.cpp and point the profile at its llama-server',
      path: exe,
    }
  }
  if (platform !== 'win32') {
    try {
      await access(resolved, constants.X_OK)
    } catch {
      return {
        kind: 'binary-not-executable',
        reason: `${basename(resolved)} is not executable`,
        hint: 'make it executable (chmod +x on the file named in the details)',
        path: resolved,
      }
    }
  }
  return resolved
}

async function checkGguf(path: string, role: 'model' | 'draft'): Promise<PreflightFailure | null> {
  const what = role === 'model' ? 'model' : 'draft model'
  const missingKind: FailureKind = role === 'model' ? 'model-missing' : 'draft-missing'
  let handle
  try {
    const s = await stat(path)
    if (!s.isFile())
      return { kind: missingKind, reason: `the ${what} path ${basename(path)} is not a file`, hint: 'point it at a .gguf file', path }
    handle = await open(path, 'r')
    const buf = Buffer.alloc(4)
    const { bytesRead } = await handle.read(buf, 0, 4, 0)
    if (bytesRead < 4 || !buf.equals(GGUF_MAGIC)) {
      return {
        kind: 'model-corrupt',
        reason: `the ${what} ${basename(path)} is not a GGUF file (it does not start with "GGUF")`,
        hint: 'download it again; a .gguf that is HTML or a partial download is a common cause',
        path,
      }
    }
    return null
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    if (code === 'ENOENT')
      return {
        kind: missingKind,
        reason: `the ${what} file ${basename(path)} does not exist`,
        hint: `choose the file again, or check the ${role === 'model' ? '-m' : '-md'} path`,
        path,
      }
    return {
      kind: missingKind,
      reason: `cannot read the ${what} ${basename(path)} (${code ?? (err as Error).message})`,
      hint: "check the file's permissions",
      path,
    }
  } finally {
    await handle?.close()
  }
}

export interface PreflightInput {
  readonly exe: string
  readonly args: readonly string[]
  readonly env?: Readonly<Record<string, string>>
  readonly platform?: NodeJS.Platform
}

/**
 * Checks what can be checked before spawning: the binary, the model files,
 * and that a non-loopback listener has good API keys (host-guard.ts). Returns the resolved
 * executable path, or the first failure. (The port is checked separately,
 * once the endpoint is known.)
 */
export async function preflight(input: PreflightInput): Promise<{ ok: true; exe: string } | { ok: false; failure: PreflightFailure }> {
  const platform = input.platform ?? process.platform
  const exe = await checkExecutable(input.exe, platform)
  if (typeof exe !== 'string') return { ok: false, failure: exe }

  const model = lastValue(input.args, MODEL_FLAGS)
  if (model !== null) {
    const failure = await checkGguf(model, 'model')
    if (failure) return { ok: false, failure }
  }
  const draft = lastValue(input.args, DRAFT_MODEL_FLAGS)
  if (draft !== null) {
    const failure = await checkGguf(draft, 'draft')
    if (failure) return { ok: false, failure }
  }
  const unsendable = unsendableKeyProblem(input.args, input.env)
  if (unsendable) return { ok: false, failure: { kind: 'flag-value', ...unsendable } }
  const exposed = await exposedListenerProblem(input.args, input.env)
  if (exposed) return { ok: false, failure: { kind: 'exposed-without-key', ...exposed } }
  return { ok: true, exe }
}
