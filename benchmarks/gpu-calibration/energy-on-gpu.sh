#!/usr/bin/env bash
# Issue #37: NVML power and energy for a real generation, and energyJ on the requests, on the lent GPU machine.
# Stage first, here: `bash benchmarks/gpu-calibration/energy-stage.sh` (node, the CLI's runtime packages and the
# test llama-server into .device/energy, git-ignored); then run this from the repository root there, carrying
# .device/energy and out/cli. The server is the CPU test build (no CUDA build travels within the size limit): the
# energy is the GPU's over each request while the CPU generates, what NVML's counter says of the board.
set -euo pipefail
D=.device/energy
W=$(mktemp -d)
mkdir -p "$W/bin" "$W/llama"
xz -dc "$D/node.xz" >"$W/bin/node" && chmod +x "$W/bin/node"
tar xJf "$D/node_modules.tar.xz"
tar xJf "$D/llama-server.tar.xz" -C "$W/llama"
export PATH="$W/bin:$PATH"
OUT=${OUT:-$W/out}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version,power.draw,power.draw.average,enforced.power.limit,clocks_event_reasons.active \
  --format=csv >"$OUT/nvidia-smi.csv" 2>&1 || true
node benchmarks/gpu-calibration/energy-on-gpu.mjs "$W/llama/llama-server" "$OUT" 2>&1 | tee "$OUT/energy.txt"
