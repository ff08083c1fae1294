import type { CommandHelp } from '../command'

/** What the usage text says of `profiles`; the command's own module loads only when it runs (see ./index.ts). */
export const PROFILES_HELP: CommandHelp = {
  name: 'profiles',
  summary: 'list, import, export and choose launch profiles',
  usage:
    `  llama-tray profiles list | show <id> | rm <id> | use <id> [--no-wait] [--json]
      use: with llama-tray serve or the app running, the switch waits for its running requests (it says how long), then returns once
      the profile is ready (--no-wait returns at once); with nothing running, the profile is only marked active
  llama-tray profiles import [--name N] [--force] [--replace] [--] <llama-server command…>   (or --file F with a pasted command)
      --force stores a command whose -m file is missing or whose first word is not a llama-server; --replace overwrites a profile of the same name
  llama-tray profiles export <id> [--format cmd|powershell|bash]
  llama-tray profiles pin <id> | unpin <id>   run a profile beside the active one (refused when both do not fit the GPU)
  llama-tray profiles fix <id>     apply the replacements for flags its binary rejects (--no-mmap → -lm none …)
  llama-tray profiles set-model <id> <file.gguf> | set-draft <id> <file.gguf>   point the profile at a moved or new model file
  llama-tray profiles discover [--models-dir DIR …] [--detect] [--create [--name N]]   find llama-server and GGUF models ` +
    `(PATH, install folders, LM Studio, HF cache)
  llama-tray profiles create --binary bN --model mN [--draft mN] [--name N] [--models-dir DIR …]   a profile from what discover listed`,
}
