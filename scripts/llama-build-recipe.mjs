// How the tests' llama.cpp is compiled, shared by the native build (scripts/llama-server-build.mjs)
// and the mingw-w64 cross-build of the Windows lane (scripts/windows-lane.mjs).
//
// The tests run tiny models, so the server's code needs no -O3: -O1 compiles in about two thirds
// of the time (measured file by file on the server's sources). The native build's CPU kernels keep
// -O3 (scripts/llama-server-build.mjs compiles them as the prebuilt ones, with OpenMP). The llamafile matrix
// kernels are left out (ggml's own kernels do the same work) and the web UI is neither built nor
// downloaded from Hugging Face (the tests never open it, and a build must not need the network
// beyond the npm registry). The server's C++ targets are unity builds (scripts/llama-unity.cmake).

import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** Part of every cache key: a binary built by another recipe is never reused. Change it with the options below. */
export const BUILD_RECIPE = 'lean3'

const UNITY_CMAKE = join(dirname(fileURLToPath(import.meta.url)), 'llama-unity.cmake')

export const RECIPE_CMAKE_OPTIONS = [
  '-DCMAKE_BUILD_TYPE=Release',
  '-DCMAKE_C_FLAGS_RELEASE=-O1 -DNDEBUG',
  '-DCMAKE_CXX_FLAGS_RELEASE=-O1 -DNDEBUG',
  '-DGGML_NATIVE=OFF',
  '-DGGML_LLAMAFILE=OFF',
  '-DGGML_CUDA=OFF',
  '-DGGML_METAL=OFF',
  '-DGGML_VULKAN=OFF',
  '-DLLAMA_CURL=OFF',
  '-DLLAMA_OPENSSL=OFF',
  '-DLLAMA_BUILD_TESTS=OFF',
  '-DLLAMA_BUILD_EXAMPLES=OFF',
  '-DLLAMA_BUILD_UI=OFF',
  '-DLLAMA_USE_PREBUILT_UI=OFF',
  `-DCMAKE_PROJECT_INCLUDE=${UNITY_CMAKE}`,
]
