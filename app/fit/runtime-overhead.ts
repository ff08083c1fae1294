/**
 * GPU memory a llama-server process holds beyond the buffers it reports: the
 * CUDA context, cuBLAS handles and the CUDA backend's memory pools. Measured
 * with nvidia-smi on an H200 (driver 580, CUDA 13) over 29 launches from a
 * 0.5 GB dense model to a 21 GB MoE: 589–603 MiB at ready, and after the first
 * request 591 MiB for the dense model and 693–703 MiB for the MoE
 * (test/fixtures/llama-server-cuda-h200/summary.tsv). Smaller GPUs likely need
 * somewhat less: this is a measured middle, not a bound.
 */
export const CUDA_RUNTIME_MIB = 650
