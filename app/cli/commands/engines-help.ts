import type { CommandHelp } from '../command'

export const SUBCOMMANDS = ['install', 'list', 'verify', 'update', 'remove', 'rollback', 'detect'] as const

/** What the usage text says of `engines`; the command's own module loads only when it runs (see ./index.ts). */
export const ENGINES_HELP: CommandHelp = {
  name: 'engines',
  summary: `get and manage llama.cpp builds (${SUBCOMMANDS.join(', ')}); detect what a llama-server binary is`,
  usage: `  llama-tray engines install [--backend auto|cpu|cuda-12|cuda-13|vulkan] [--tag TAG] [--json]
    Downloads llama.cpp's release for this OS and GPU from GitHub (auto: the NVIDIA driver's CUDA version picks
    CUDA 13 or 12; no NVIDIA GPU: Vulkan on Windows, CPU elsewhere), checks its sha256, and installs it in
    <home>/engines/<tag>-<backend>/. GITHUB_API_URL replaces https://api.github.com; GITHUB_TOKEN raises the rate limit.
    After extraction the new llama-server must load a tiny model with one layer on the GPU and answer a 4-token
    completion; with auto, a build that fails falls back to the next (CUDA 13, CUDA 12, Vulkan, CPU).
  llama-tray engines list [--json]            installed engines (size, the profiles using them) and binaries found elsewhere
  llama-tray engines verify [<id>] [--json]   the GPU check again, and the files against the hashes taken at install
  llama-tray engines remove <id> [--force]    refuses an engine a profile uses unless --force
  llama-tray engines update --check [--json]  whether a newer release is out (downloads nothing)
  llama-tray engines update [<profile>] [--runs N] [--tokens N] [--rounds R]
    Installs the newest release beside the profile's engine and benches both, alternated; the profile moves to the
    new engine only if it loads and is not slower (generation and prompt) beyond the run's noise.
  llama-tray engines rollback <profile>       back to the engine the profile had before its last update
  llama-tray engines [detect] [<binary>…] [--json]   what a binary is (mainline, ik_llama, buun), its flags`,
}
