import { accessSync, constants } from 'node:fs'
import path from 'node:path'

export interface FindEnv {
  readonly platform: NodeJS.Platform
  readonly env: NodeJS.ProcessEnv
  /** True when the file exists and can be run. */
  readonly isExecutable: (file: string) => boolean
}

function isExecutableFile(file: string): boolean {
  try {
    accessSync(file, process.platform === 'win32' ? constants.F_OK : constants.X_OK)
    return true
  } catch {
    return false
  }
}

const defaultEnv = (): FindEnv => ({ platform: process.platform, env: process.env, isExecutable: isExecutableFile })

/** Where nvidia-smi may be, in the order we try: PATH, then the Windows driver locations. */
export function nvidiaSmiCandidates({ platform, env }: Pick<FindEnv, 'platform' | 'env'>): string[] {
  const win = platform === 'win32'
  const p = win ? path.win32 : path.posix
  const exe = win ? 'nvidia-smi.exe' : 'nvidia-smi'
  const pathVar = env.PATH ?? env.Path ?? ''
  const out = pathVar
    .split(win ? ';' : ':')
    .filter((dir) => dir.trim() !== '')
    .map((dir) => p.join(dir.replace(/^"|"$/g, ''), exe))
  if (win) {
    const systemRoot = env.SystemRoot ?? env.SYSTEMROOT ?? 'C:\\Windows'
    const programFiles = env.ProgramFiles ?? env.PROGRAMFILES ?? 'C:\\Program Files'
    out.push(p.join(systemRoot, 'System32', exe), p.join(programFiles, 'NVIDIA Corporation', 'NVSMI', exe))
  }
  return out
}

/** The first nvidia-smi that can be run, or null. */
export function findNvidiaSmi(env: FindEnv = defaultEnv()): string | null {
  return nvidiaSmiCandidates(env).find((file) => env.isExecutable(file)) ?? null
}
