#!/usr/bin/env bash
# Issue #28 on a real GPU: `llama-tray engines verify` runs the engine GPU check (the shipped tiny
# model with one layer on the GPU, a 4-token completion, the log scanned for GPU errors) on a CUDA
# build of llama-server: once as it is, once with no GPU visible (CUDA_VISIBLE_DEVICES=""), which must
# fail with one sentence. Run from the repository root with the built CLI and its runtime
# dependencies in .device/cli (or packed as .device/cli.tar.xz) and the llama.cpp source in
# .device/gpu/llama-src.tar.xz (see oom-retry.sh). Results go to $OUT.
set -u
STAGE=.device/gpu; BUILD=/tmp/gpu-build; OUT=${OUT:-/tmp/gpu-out}
mkdir -p "$OUT"; start=$(date +%s)
mkdir -p /tmp/node && xz -dc .device/node.xz > /tmp/node/node && chmod +x /tmp/node/node
export PATH=/tmp/node:$PATH
[ -d .device/cli ] || tar -xJf .device/cli.tar.xz -C .device || exit 1
pkill -f llama-server
exec > >(tee -a "$OUT/progress.txt") 2>&1
if [ ! -x "$BUILD/bin/llama-server" ]; then
mkdir -p /tmp/src && tar -xJf "$STAGE/llama-src.tar.xz" -C /tmp/src
cmake -S /tmp/src -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DGGML_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90-real \
  -DLLAMA_CURL=OFF -DLLAMA_OPENSSL=OFF -DBUILD_SHARED_LIBS=OFF -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF > /tmp/cmake.log 2>&1 || { tail -30 /tmp/cmake.log; exit 1; }
cmake --build "$BUILD" --target llama-server -j "$(nproc)" > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
fi
echo "built in $(( $(date +%s) - start )) s"
nvidia-smi --query-gpu=name,driver_version,memory.total,memory.free --format=csv,noheader | tee "$OUT/gpu.txt"
H=/tmp/lt-engines-home; rm -rf "$H"; mkdir -p "$H/engines/b0-cuda-12"
cp "$BUILD/bin/llama-server" "$H/engines/b0-cuda-12/"
printf '{"version":1,"id":"b0-cuda-12","tag":"b0","backend":"cuda-12","publishedAt":null,"binary":"llama-server","engineVersion":null,"assets":[],"installedAt":"%s"}\n' \
  "$(date -u +%FT%TZ)" > "$H/engines/b0-cuda-12/llama-tray-engine.json"
CLI=(node .device/cli/out/cli/llama-tray.mjs --home "$H")
t0=$(date +%s.%N)
timeout 120 "${CLI[@]}" engines verify b0-cuda-12 --json > "$OUT/verify-gpu.json"; echo "verify with the GPU: exit $? in $(awk -v a="$(date +%s.%N)" -v b="$t0" 'BEGIN{printf "%.1f", a-b}') s"
t0=$(date +%s.%N)
CUDA_VISIBLE_DEVICES= timeout 120 "${CLI[@]}" engines verify b0-cuda-12 --json > "$OUT/verify-no-gpu.json"; echo "verify with no GPU visible: exit $? in $(awk -v a="$(date +%s.%N)" -v b="$t0" 'BEGIN{printf "%.1f", a-b}') s"
cp "$H/engine-checks.json" "$OUT/engine-checks.json" 2> /dev/null
echo "total $(( $(date +%s) - start )) s"
