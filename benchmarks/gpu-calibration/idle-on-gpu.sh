#!/usr/bin/env bash
# The idle cost of `llama-tray serve` and `run` (text) with a ready CUDA llama-server and NVML, on the GPU machine:
# builds llama-server with CUDA (run-on-gpu.sh's build, without the FlashAttention kernels: idle needs none, and
# the build is shorter), writes the synthetic Qwen3.6-35B-A3B, times each NVML call with no server and with the
# servers up, then measures every CLI staged by stage-idle.sh (the base revision and the working tree) in both
# modes at once: SECONDS_IDLE of steady state after SETTLE s, from outside and by the bench's reader, plus a CPU
# profile of each. Run from the repository root after stage.sh and stage-idle.sh; results in $OUT. What travels:
# carry .device/node.xz .device/gpu/llama-src.tar.xz "$D/gpu/make-models.mjs" .device/gpu/assets .device/idle
set -u
D=${DEVICE_DIR:-.device}
export DEVICE_DIR=$D BUILD_DIR=${BUILD_DIR:-/tmp/gpu-build}
OUT=${OUT:-/tmp/idle-out}
mkdir -p "$OUT"
start=$(date +%s)
export CMAKE_EXTRA="-DGGML_CUDA_FA=OFF -DLLAMA_BUILD_UI=OFF -DLLAMA_USE_PREBUILT_UI=OFF ${CMAKE_EXTRA:-}"
bash "$(dirname "$0")/run-on-gpu.sh" build "${BUILD_BUDGET:-330}" || exit 3
SERVER=${SERVER_OVERRIDE:-$BUILD_DIR/bin/llama-server}
N=/tmp/node/node
M=/tmp/synth
[ -f "$M/Qwen3.6-35B-A3B-Q4_K_M.gguf" ] || $N "$D/gpu/make-models.mjs" test/fixtures/models/tiny-target.gguf "$M" > /dev/null || exit 1
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$OUT/gpu.txt"
nproc
$N $D/idle/nvml-calls.mjs no-server | tee "$OUT/nvml-calls.txt"
OUT=/tmp/idle-run $N $D/idle/idle-device.mjs --bin "$SERVER" --model "$M/Qwen3.6-35B-A3B-Q4_K_M.gguf" \
  --args="-ngl 999 -c 65536 -np 1 -ctk q4_0 -ctv q4_0 --n-cpu-moe 30" --seconds "${SECONDS_IDLE:-60}" --settle "${SETTLE:-25}" \
  ${PROF:+--prof} ${CLIS:-base=$D/idle/base.mjs now=$D/idle/now.mjs} > "$OUT/idle-table.md" 2> "$OUT/idle-err.txt" &
measurer=$!
sleep "${NVML_AT:-50}"
$N $D/idle/nvml-calls.mjs servers-up | tee -a "$OUT/nvml-calls.txt"
# STRACE=<label>: what that CLI's `serve` does over 30 s of its idle window, every syscall with its time (where
# strace is installed): the wakes and what each one reads.
if [ -n "${STRACE:-}" ] && command -v strace > /dev/null; then
  pid=$(pgrep -f "$STRACE.mjs serve" | head -1)
  [ -n "$pid" ] && timeout 30 strace -f -tt -p "$pid" -o "$OUT/strace-$STRACE-serve.txt" 2> /dev/null
fi
wait $measurer
tar -czf "$OUT/idle-logs.tgz" -C /tmp idle-run
cat "$OUT/idle-table.md" "$OUT/idle-err.txt"
echo "done in $(( $(date +%s) - start )) s"
