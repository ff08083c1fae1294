#!/usr/bin/env bash
# One device call for issues #37 and #41 together (about 7 minutes on 16 cores): builds llama-server with CUDA,
# records the GPU energy of five generations of the synthetic Qwen3.6-35B-A3B fully on the GPU (energy-on-gpu.mjs),
# then measures the idle cost of `serve` and `run` (idle-on-gpu.sh, 60 s after 20 s). Stage first, here:
#   bash benchmarks/gpu-calibration/stage.sh
#   DEVICE_COPY=.device/h41 bash benchmarks/gpu-calibration/stage-idle.sh   (then delete .device/h41/idle/base.mjs
#   if only the working tree is measured: with the repository the carried folder must stay under 64 MiB)
# and call, from the repository root there: DEVICE_DIR=.device/h41 bash benchmarks/gpu-calibration/gpu-session.sh
# carrying .device/h41. Everything lands in $OUT (six files at most, the rest in all.tgz).
set -u
D=${DEVICE_DIR:-.device/h41}
export DEVICE_DIR=$D BUILD_DIR=${BUILD_DIR:-/tmp/gpu-build}
HERE=$(dirname "$0")
O=/tmp/o
mkdir -p $O
export CMAKE_EXTRA="-DGGML_CUDA_FA=OFF -DLLAMA_BUILD_UI=OFF -DLLAMA_USE_PREBUILT_UI=OFF"
OUT=$O bash "$HERE/run-on-gpu.sh" build 330 || exit 3
M=/tmp/synth
/tmp/node/node "$D/gpu/make-models.mjs" test/fixtures/models/tiny-target.gguf $M > /dev/null
F=name,driver_version,power.draw,power.draw.average,power.draw.instant,enforced.power.limit,clocks_event_reasons.active
nvidia-smi --query-gpu=$F \
  --format=csv > "$OUT/nvidia-smi-power.csv" 2>&1
cat "$OUT/nvidia-smi-power.csv"
mkdir -p /tmp/en-gpu
CLI=$D/idle/now.mjs MODEL=$M/Qwen3.6-35B-A3B-Q4_K_M.gguf EXTRA_ARGS="-ngl 999" N_PREDICT=${N_PREDICT:-300} THREADS=8 \
  timeout 150 /tmp/node/node "$HERE/energy-on-gpu.mjs" "$BUILD_DIR/bin/llama-server" /tmp/en-gpu 2>&1 | tail -20 | tee "$OUT/energy-gpu.txt"
cp /tmp/en-gpu/energy.json "$OUT/energy-gpu.json" 2>/dev/null
CLIS=${CLIS:-now=$D/idle/now.mjs} OUT=$O SETTLE=${SETTLE:-20} NVML_AT=40 bash "$HERE/idle-on-gpu.sh" 2>&1 | tail -8
cp $O/idle-table.md "$OUT/" 2>/dev/null
tar czf "$OUT/all.tgz" -C /tmp o
