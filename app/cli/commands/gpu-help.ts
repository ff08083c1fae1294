import type { CommandHelp } from '../command'

/** What the usage text says of `gpu`; the command's own module loads only when it runs (see ./index.ts). */
export const GPU_HELP: CommandHelp = {
  name: 'gpu',
  summary: 'show the NVIDIA GPUs (inventory, a sample, the programs on them), or watch them (--watch)',
  usage: `  llama-tray gpu [--json] [--watch] [--interval MS] [--backend auto|nvml|nvidia-smi] [--verbose]
    --json              one JSON object per line: {time, inventory, gpu[, sharedGpuMemory on Windows][, gpuProcesses]}, then {time, gpu}
    --watch             keep printing a sample every interval until Ctrl+C
    --interval MS       sampling interval in milliseconds (default 1000)
    --backend NAME      force NVML or the nvidia-smi reader (default auto: NVML, then nvidia-smi)
    --verbose           without a driver, also print where it was looked for; why the programs were not read
  Exit code 1 when no GPU data can be read (the reason is printed).`,
}
