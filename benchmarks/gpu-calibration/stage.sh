#!/usr/bin/env bash
# Stages what run-on-gpu.sh needs into .device/gpu (git-ignored): the llama.cpp
# source of the pinned node-llama-cpp (CUDA and CPU backends only), the model
# generator bundled with its dependencies, and the tiny fixture models.
# .device/node.xz (this machine's node, xz-compressed) must exist.
set -eu
cd "$(dirname "$0")/../.."
STAGE=.device/gpu
VERSION=$(sed -n "s/^export const NODE_LLAMA_CPP_VERSION = '\(.*\)'/\1/p" scripts/llama-server-build.mjs)
rm -rf "$STAGE" && mkdir -p "$STAGE"
work=$(mktemp -d)
(cd "$work" && npm pack "node-llama-cpp@$VERSION" --silent > /dev/null && tar xzf "node-llama-cpp-$VERSION.tgz" package/llama/gitRelease.bundle \
  && git -c advice.detachedHead=false clone -q package/llama/gitRelease.bundle llama.cpp)
tar -C "$work/llama.cpp" -cJf "$STAGE/llama-src.tar.xz" --exclude=./.git --exclude=./models --exclude=./tests --exclude=./examples --exclude=./docs \
  --exclude=./media --exclude=./gguf-py --exclude=./ggml/src/ggml-{sycl,vulkan,opencl,hexagon,metal,et,webgpu,openvino,cann} .
rm -rf "$work"
node -e "
import('vite').then(({ build }) => build({ configFile: false, logLevel: 'warn', ssr: { noExternal: true },
  build: { ssr: 'benchmarks/gpu-calibration/make-models.ts', outDir: '$STAGE', emptyOutDir: false, target: 'node20',
    rollupOptions: { external: [/^node:/], output: { format: 'es', entryFileNames: 'make-models.mjs' } } } }))"
cp test/fixtures/models/tiny-target.gguf test/fixtures/models/tiny-draft.gguf "$STAGE/"
[ -f .device/node.xz ] || { echo "missing .device/node.xz: xz -9 -c \$(command -v node) > .device/node.xz"; exit 1; }
du -sh "$STAGE" .device/node.xz
