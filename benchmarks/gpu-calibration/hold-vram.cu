// Holds GPU memory until killed, so that about KEEP_FREE_MIB stay free: another program taking the
// memory a profile was fitted for (a game, a second monitor, a browser). Prints one line once holding.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <unistd.h>

int main(int argc, char **argv) {
  if (argc != 2) { fprintf(stderr, "usage: hold-vram KEEP_FREE_MIB\n"); return 2; }
  const size_t keep = strtoull(argv[1], nullptr, 10) << 20;
  size_t free_b = 0, total_b = 0;
  // Big steps first, then small ones, so the free figure lands within 16 MiB of the target.
  for (size_t step : {size_t(1) << 30, size_t(256) << 20, size_t(16) << 20}) {
    for (;;) {
      if (cudaMemGetInfo(&free_b, &total_b) != cudaSuccess) { fprintf(stderr, "cudaMemGetInfo failed\n"); return 1; }
      if (free_b < keep + step) break;
      void *p = nullptr;
      if (cudaMalloc(&p, step) != cudaSuccess) break;
    }
  }
  cudaMemGetInfo(&free_b, &total_b);
  printf("hog: holding, free %zu MiB of %zu MiB\n", free_b >> 20, total_b >> 20);
  fflush(stdout);
  pause();
  return 0;
}
