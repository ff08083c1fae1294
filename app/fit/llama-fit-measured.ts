/**
 * What llama.cpp's own fit did against ours, measured on an H200 (llama.cpp
 * v0.5.0 built with CUDA) held to an RTX 4060 Laptop's budget: 8188 MiB with
 * 1536 MiB kept free, for Qwen3.6-35B-A3B's tensor table at -c 65536 -np 1,
 * q4_0 KV (the recordings: test/fixtures/llama-server-cuda-h200/llama-fit/,
 * checked by llama-fit-measured.test.ts). MiB are what nvidia-smi showed the
 * process holding after its first request.
 */
export const LLAMA_FIT_MEASURED = {
  gpu: 'an H200 held to an 8 GB budget',
  model: 'Qwen3.6-35B-A3B',
  budgetMiB: 6652,
  headroomMiB: 1536,
  /** llama.cpp's plan (--fit on -fitt): experts of 33 layers on the CPU, one partly. */
  llamaMiB: 6708,
  llamaDraftMiB: 6724,
  /** Seconds its fit took at each start, and the start to ready with and without it. */
  llamaFitS: 9.2,
  readyWithFitS: 15.4,
  readyHandPickedS: 3.0,
  /** Ours: --n-cpu-moe 33 (36 with the 0.8B draft). */
  oursNCpuMoe: 33,
  oursMiB: 6310,
  oursDraftNCpuMoe: 36,
  oursDraftMiB: 6260,
  /** What the first request added to the process after ready, which llama.cpp's fit (measured at load) does not count. */
  firstRequestMiB: 100,
} as const

/** The --fit-target that keeps `headroomMiB` free once the first request has run. */
export function fitTargetFor(headroomMiB: number): number {
  return Math.ceil((headroomMiB + LLAMA_FIT_MEASURED.firstRequestMiB) / 10) * 10
}
