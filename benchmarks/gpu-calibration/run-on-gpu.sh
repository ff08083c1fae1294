#!/usr/bin/env bash
# Builds llama-server with CUDA on a machine with an NVIDIA GPU and records what
# it reserves for the fit calibration configurations: the -lv 4 buffer lines and
# the GPU memory the process really holds (nvidia-smi), at ready and after a
# short request. Run from the repository root with the staged folder prepared by
# stage.sh; results go to $OUT (gpu-logs.tar.gz, summary.tsv).
#   phase "build": configure and build (resumable: call again to continue)
#   phase "measure": run the configurations (builds first if needed)
# CMAKE_EXTRA adds cmake options (idle-on-gpu.sh: no FlashAttention kernels, a shorter build)
set -u
# DEVICE_DIR: where the staged files are (default .device; idle-on-gpu.sh may stage elsewhere)
D=${DEVICE_DIR:-.device}
STAGE=$D/gpu
BUILD=${BUILD_DIR:-$D/gpu-build}
OUT=${OUT:-/tmp/gpu-out}
mkdir -p "$OUT" /tmp/gpu-logs
phase=${1:-measure}
budget=${2:-520}
start=$(date +%s)

if [ ! -x /tmp/node/node ]; then
  mkdir -p /tmp/node && xz -dc "$D/node.xz" > /tmp/node/node && chmod +x /tmp/node/node
fi
if [ -n "${SERVER_OVERRIDE:-}" ]; then SERVER=$SERVER_OVERRIDE; else
if [ ! -f "$D/gpu-src"/CMakeLists.txt ]; then
  mkdir -p "$D/gpu-src" && tar -xJf "$STAGE/llama-src.tar.xz" -C "$D/gpu-src"
fi
if [ ! -f "$BUILD/build.ninja" ]; then
  cmake -S "$D/gpu-src" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DGGML_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90-real \
    -DLLAMA_CURL=OFF -DLLAMA_OPENSSL=OFF -DBUILD_SHARED_LIBS=OFF -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF ${CMAKE_EXTRA:-} > "$OUT/cmake.log" 2>&1 \
    || { tail -30 "$OUT/cmake.log"; exit 1; }
fi
left=$((budget - ($(date +%s) - start)))
timeout "$left" cmake --build "$BUILD" --target llama-server -j "$(nproc)" > "$OUT/build.log" 2>&1
rc=$?
tail -3 "$OUT/build.log"
SERVER=$BUILD/bin/llama-server
if [ $rc -ne 0 ] || [ ! -x "$SERVER" ]; then echo "build not finished (rc $rc) after $(( $(date +%s) - start )) s"; exit 3; fi
echo "built in this call: $(( $(date +%s) - start )) s"
fi
[ "$phase" = build ] && exit 0

M=/tmp/synth
[ -f "$M/Qwen3.6-35B-A3B-Q4_K_M.gguf" ] || /tmp/node/node "$STAGE/make-models.mjs" "$STAGE/tiny-target.gguf" "$M" || exit 1
T=$STAGE
nvidia-smi --query-gpu=name,driver_version,memory.total,memory.used --format=csv,noheader > "$OUT/gpu.txt"
cat "$OUT/gpu.txt"
printf 'config\tready_s\tused_before_mib\tused_ready_mib\tused_after_request_mib\tproc_ready_mib\tproc_after_mib\trequest\n' > "$OUT/summary.tsv"

used() { nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits | head -1 | tr -d ' '; }
proc() { nvidia-smi --query-compute-apps=pid,used_memory --format=csv,noheader,nounits | awk -F', *' -v p="$1" '$1==p {print $2}'; }

run() {
  local name=$1; shift
  [[ "$name" =~ ${ONLY:-.} ]] || return 0
  local log=/tmp/gpu-logs/$name.log
  local before; before=$(used)
  local t0; t0=$(date +%s.%N)
  "$SERVER" --host 127.0.0.1 --port 18181 -lv 4 "$@" > "$log" 2>&1 &
  local pid=$!
  local ready=0
  for _ in $(seq 1 600); do
    if curl -sf http://127.0.0.1:18181/health > /dev/null 2>&1; then ready=1; break; fi
    kill -0 $pid 2> /dev/null || break
    sleep 0.2
  done
  local rs; rs=$(awk -v a="$(date +%s.%N)" -v b="$t0" 'BEGIN { printf "%.1f", a - b }')
  local atReady=NA pReady=NA after=NA pAfter=NA req=none
  if [ $ready = 1 ]; then
    sleep 1
    atReady=$(used); pReady=$(proc $pid)
    if curl -sf -m 60 http://127.0.0.1:18181/completion -d '{"prompt":"Hello there, how are","n_predict":16,"cache_prompt":false}' > /dev/null 2>&1; then req=ok; else req=failed; fi
    sleep 1
    after=$(used); pAfter=$(proc $pid)
  fi
  kill -TERM $pid 2> /dev/null; sleep 2; kill -INT $pid 2> /dev/null; sleep 1; kill -KILL $pid 2> /dev/null; wait $pid 2> /dev/null
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$rs" "$before" "$atReady" "$after" "${pReady:-NA}" "${pAfter:-NA}" "$req" | tee -a "$OUT/summary.tsv"
}

Q36=$M/Qwen3.6-35B-A3B-Q4_K_M.gguf
Q08=$M/Qwen3.5-0.8B-Q4_K_M.gguf
SEED=(-m "$Q36" -ngl 999 -c 65536 -np 1 -ctk q4_0 -ctv q4_0)
if [ "${SET:-1}" = 1 ]; then
run tiny-c4096-np1 -m "$T/tiny-target.gguf" -c 4096 -np 1
run tiny-c4096-ncmoe20 -m "$T/tiny-target.gguf" -c 4096 -np 1 --n-cpu-moe 20
run tiny-ngl20 -m "$T/tiny-target.gguf" -c 4096 -np 1 -ngl 20
run tiny-c16384-q4 -m "$T/tiny-target.gguf" -c 16384 -np 1 -ctk q4_0 -ctv q4_0
run tiny-fa-off -m "$T/tiny-target.gguf" -c 8192 -np 1 -fa off
run tiny-draft -m "$T/tiny-target.gguf" -c 8192 -np 1 -md "$T/tiny-draft.gguf" -ngld 99 --spec-type draft-simple
run q36-seed-draft "${SEED[@]}" --n-cpu-moe 34 -md "$Q08" -ngld 99 --spec-type draft-simple
run q36-seed "${SEED[@]}" --n-cpu-moe 34
run q36-ncmoe30 "${SEED[@]}" --n-cpu-moe 30
run q36-ncmoe38 "${SEED[@]}" --n-cpu-moe 38
run q36-ncmoe40 "${SEED[@]}" --n-cpu-moe 40
run q36-all-gpu "${SEED[@]}"
run q36-c16384-f16 -m "$Q36" -ngl 999 -c 16384 -np 1 --n-cpu-moe 34
run q36-seed-lm-none "${SEED[@]}" --n-cpu-moe 34 -lm none
run q36-ub2048 "${SEED[@]}" --n-cpu-moe 34 -ub 2048 -b 2048
else
# One factor at a time around the seed placement, for the CUDA compute-buffer model.
G=(-m "$Q36" -ngl 999 -np 1)
run a-c16384-q4-ub512 "${G[@]}" -c 16384 -ctk q4_0 -ctv q4_0
run a-c65536-f16-ub512 "${G[@]}" -c 65536
run a-c65536-q4-ub256 "${G[@]}" -c 65536 -ctk q4_0 -ctv q4_0 -ub 256
run a-c65536-q4-ub1024 "${G[@]}" -c 65536 -ctk q4_0 -ctv q4_0 -ub 1024
run a-c65536-q4-ub2048 "${G[@]}" -c 65536 -ctk q4_0 -ctv q4_0 -ub 2048 -b 2048
run a-c65536-q4-np2 -m "$Q36" -ngl 999 -np 2 -c 65536 -ctk q4_0 -ctv q4_0
run a-fa-off-c16384 "${G[@]}" -c 16384 -fa off
run m-c16384-q4-ub512 "${G[@]}" -c 16384 -ctk q4_0 -ctv q4_0 --n-cpu-moe 34
run m-c65536-q4-ub256 "${G[@]}" -c 65536 -ctk q4_0 -ctv q4_0 -ub 256 --n-cpu-moe 34
run m-c65536-q4-ub1024 "${G[@]}" -c 65536 -ctk q4_0 -ctv q4_0 -ub 1024 --n-cpu-moe 34
run m-c65536-q4-no-op-offload "${G[@]}" -c 65536 -ctk q4_0 -ctv q4_0 --n-cpu-moe 34 --no-op-offload
run m-ncmoe1 "${G[@]}" -c 65536 -ctk q4_0 -ctv q4_0 --n-cpu-moe 1
run m-ot-down-only "${G[@]}" -c 65536 -ctk q4_0 -ctv q4_0 -ot 'blk\.(1[0-9]|2[0-9])\.ffn_down_exps=CPU'
run m-ngl30 -m "$Q36" -ngl 30 -np 1 -c 65536 -ctk q4_0 -ctv q4_0
run d-seed-cd4096 "${G[@]}" -c 65536 -ctk q4_0 -ctv q4_0 --n-cpu-moe 34 -md "$Q08" -ngld 99 --spec-type draft-simple -cd 4096
run d-draft-alone -m "$Q08" -ngl 999 -np 1 -c 65536
fi
tar -czf "$OUT/gpu-logs.tar.gz" -C /tmp gpu-logs
echo "done in $(( $(date +%s) - start )) s"
