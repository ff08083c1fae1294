import type { CommandHelp } from '../command'

/** What the usage text says of `models`; the command's own module loads only when it runs (see ./index.ts). */
export const MODELS_HELP: CommandHelp = {
  name: 'models',
  summary: 'pull a GGUF from Hugging Face into its cache (resumed, sha256-verified); list the models found',
  usage: [
    '  llama-tray models pull <org/name>[:<quant>] [--file NAME] [--json]',
    '      the GGUF for the quant (e.g. Q4_K_M; all parts of a split model) into the Hugging Face cache',
    '      ($HF_HUB_CACHE, else $HF_HOME/hub, else ~/.cache/huggingface/hub); $HF_ENDPOINT, $HF_TOKEN for gated repos;',
    '      --json prints { repo, file, path, sizeBytes, sha256 }',
    '  llama-tray models list [--models-dir DIR]… [--json]   the GGUF models discovery finds (LM Studio, the HF cache, ~/models)',
    '  llama-tray models recipe [<id> [--binary PATH] [--vram-mib N] [--json]]   without an id: the recipes; with one: pulls its model',
    "      and draft, and stores a profile with the flags measured for it and --n-cpu-moe fitted to the VRAM (default: the recipe's GPU)",
  ].join('\n'),
}
