#!/usr/bin/env bash
# Issue #28 on a real GPU: another program holds GPU memory so that a profile no longer fits, and
# `llama-tray run` meets a real CUDA out-of-memory at load, then retries once with the placement the
# fit chose for the free memory now. Run from the repository root after stage.sh, with the built CLI and
# its two runtime dependencies (zod, tree-kill) copied into .device/cli. Results go to $OUT.
set -u
STAGE=.device/gpu; BUILD=/tmp/gpu-build; OUT=${OUT:-/tmp/gpu-out}; KEEP=${KEEP_FREE_MIB:-6000}
mkdir -p "$OUT"; start=$(date +%s)
mkdir -p /tmp/node && xz -dc .device/node.xz > /tmp/node/node && chmod +x /tmp/node/node
export PATH=/tmp/node:$PATH
pkill -f hold-vram; pkill -f llama-server
exec > >(tee -a "$OUT/progress.txt") 2>&1
if [ ! -x "$BUILD/bin/llama-server" ]; then
mkdir -p /tmp/src && tar -xJf "$STAGE/llama-src.tar.xz" -C /tmp/src
cmake -S /tmp/src -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DGGML_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90-real \
  -DLLAMA_CURL=OFF -DLLAMA_OPENSSL=OFF -DBUILD_SHARED_LIBS=OFF -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF > /tmp/cmake.log 2>&1 || { tail -30 /tmp/cmake.log; exit 1; }
cmake --build "$BUILD" --target llama-server -j "$(nproc)" > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
fi
echo "built in $(( $(date +%s) - start )) s"
S=$BUILD/bin/llama-server
[ -x /tmp/hold-vram ] || nvcc -O2 -o /tmp/hold-vram benchmarks/gpu-calibration/hold-vram.cu || exit 1
M=/tmp/synth; [ -f "$M/Qwen3.6-35B-A3B-Q4_K_M.gguf" ] || timeout 120 node "$STAGE/make-models.mjs" "$STAGE/tiny-target.gguf" "$M" > /dev/null || exit 1
echo "models at $(( $(date +%s) - start )) s"
Q36=$M/Qwen3.6-35B-A3B-Q4_K_M.gguf
/tmp/hold-vram "$KEEP" > "$OUT/hog.txt" & HOG=$!
for _ in $(seq 1 300); do grep -q holding "$OUT/hog.txt" 2> /dev/null && break; sleep 0.1; done
cat "$OUT/hog.txt"
nvidia-smi --query-gpu=name,driver_version,memory.total,memory.used,memory.free --format=csv,noheader | tee "$OUT/gpu.txt"
H=/tmp/lt-home; rm -rf "$H"; CLI=(node "${CLI_JS:-.device/cli/out/cli/llama-tray.mjs}" --home "$H")
# The recorded failure's command: every layer on the GPU, experts of 10 layers on the CPU, 8K context.
timeout 60 "${CLI[@]}" profiles import --name big -- "$S" -m "$Q36" -ngl 999 --n-cpu-moe 10 -c 8192 -np 1 || exit 1
echo "imported at $(( $(date +%s) - start )) s"
t0=$(date +%s.%N)
LLAMA_TRAY_PORT=18700 "${CLI[@]}" run big --json --interval 250 > "$OUT/run.jsonl" 2> "$OUT/run.err" & RUN=$!
ready=NA
for _ in $(seq 1 1500); do
  if grep -q '"state":"ready".*"placementRetry":{' "$OUT/run.jsonl" 2> /dev/null; then ready=$(awk -v a="$(date +%s.%N)" -v b="$t0" 'BEGIN{printf "%.1f", a-b}'); break; fi
  kill -0 $RUN 2> /dev/null || break; sleep 0.1
done
echo "ready with the retry after ${ready} s"
sleep 2
pid=$(grep -o '"pid":[0-9]*' "$OUT/run.jsonl" | tail -1 | cut -d: -f2)
nvidia-smi --query-compute-apps=pid,used_memory --format=csv,noheader,nounits | tee "$OUT/apps.txt"
curl -s -m 60 -o /dev/null -w 'request %{http_code} in %{time_total} s\n' http://127.0.0.1:18700/completion -d '{"prompt":"Hello there","n_predict":16}' | tee "$OUT/request.txt"
kill -INT $RUN; for _ in $(seq 1 100); do kill -0 $RUN 2> /dev/null || break; sleep 0.1; done; kill -9 $RUN 2> /dev/null
wait $RUN; echo "run exited $?" | tee -a "$OUT/request.txt"
kill $HOG; wait $HOG 2> /dev/null
cp "$H/logs/llama-server.log" "$OUT/llama-server.log" 2> /dev/null
cat "$OUT/run.err"
echo "server pid $pid; total $(( $(date +%s) - start )) s"
