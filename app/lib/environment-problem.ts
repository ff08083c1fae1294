import { problem, type Problem } from '../contract/problem'

/** What to do about a file system that refuses Llama Tray's writes, by the error's code. */
const FIXES: Readonly<Record<string, string>> = {
  EROFS: 'Llama Tray cannot write its files because their disk is read-only: make it writable, or set LLAMA_TRAY_HOME elsewhere',
  ENOSPC: 'Llama Tray cannot write its files because their disk is full: free some space and try again',
  EDQUOT: 'Llama Tray cannot write its files because your disk quota is used up: free some space and try again',
  ENOTDIR:
    'Llama Tray cannot use its folder because a file stands where a folder should be: move the file, or set LLAMA_TRAY_HOME elsewhere',
  EACCES: 'Llama Tray may not write its files there: give your user access to its folder, or set LLAMA_TRAY_HOME elsewhere',
  EPERM: 'Llama Tray may not write its files there: give your user access to its folder, or set LLAMA_TRAY_HOME elsewhere',
}

/** A file system fault (read-only, full, a file for a folder, no access) as one sentence, the path in the details; else null. */
export function environmentProblem(err: unknown): Problem | null {
  if (!(err instanceof Error)) return null
  const { code, path } = err as NodeJS.ErrnoException
  const fix = code === undefined ? undefined : FIXES[code]
  if (fix === undefined) return null
  return problem('settings', fix, { details: path === undefined ? err.message : `${path}: ${err.message}` })
}
