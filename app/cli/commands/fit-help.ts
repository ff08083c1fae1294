import type { CommandHelp } from '../command'

/** What the usage text says of `fit`; the command's own module loads only when it runs (see ./index.ts). */
export const FIT_HELP: CommandHelp = {
  name: 'fit',
  summary: 'estimate VRAM and host RAM of a model (or profile) from its GGUF and pick --n-cpu-moe for a VRAM budget',
  usage: `  llama-tray fit <model.gguf | profile> [--draft F] [--vram-mib N | --gpu auto] [--headroom-mib 1536] [--runtime-mib 650] [--ctx N] [--parallel N]
                [--cache-type-k T] [--cache-type-v T] [--n-gpu-layers N] [--n-gpu-layers-draft N] [--n-cpu-moe N] [--ubatch N]
                [--llama-fit [--binary llama-server]] [--json]
    Without a VRAM budget it estimates the given placement; with one (--vram-mib, or --gpu auto from telemetry)
    it finds the smallest --n-cpu-moe whose GPU estimate (model + draft + the CUDA runtime: --runtime-mib, else
    what the app learned on this GPU model after a launch (with --gpu auto), else 650 MiB) leaves the headroom free.
    --llama-fit also asks llama.cpp's own fit (llama-fit-params beside the profile's llama-server, -fitt = the
    headroom) and prints its plan beside ours (JSON: llamaFit). Exit code 1 when nothing fits the budget.
    --json prints a FitReport (app/contract/fit.ts).`,
}
