import path from 'node:path'

/** Where NVML may be: System32 first on Windows (DCH drivers), the soname on Linux, WSL's copy. */
export function nvmlLibraryCandidates(platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env): string[] {
  if (platform === 'win32') {
    const systemRoot = env.SystemRoot ?? env.SYSTEMROOT ?? 'C:\\Windows'
    const programFiles = env.ProgramFiles ?? env.PROGRAMFILES ?? 'C:\\Program Files'
    return [path.win32.join(systemRoot, 'System32', 'nvml.dll'), path.win32.join(programFiles, 'NVIDIA Corporation', 'NVSMI', 'nvml.dll')]
  }
  if (platform === 'linux') return ['libnvidia-ml.so.1', '/usr/lib/wsl/lib/libnvidia-ml.so.1']
  return []
}
