#!/usr/bin/env bash
# Issue #19 on a real GPU: llama.cpp's own fit vs ours at an 8 GB budget, and sleep/wake on CUDA.
set -u
STAGE=.device/gpu; BUILD=/tmp/gpu-build; OUT=${OUT:-/tmp/gpu-out}; L=$OUT/logs
mkdir -p "$OUT" "$L"; start=$(date +%s)
mkdir -p /tmp/node && xz -dc .device/node.xz > /tmp/node/node && chmod +x /tmp/node/node
mkdir -p /tmp/src && tar -xJf "$STAGE/llama-src.tar.xz" -C /tmp/src
cmake -S /tmp/src -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DGGML_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90-real \
  -DLLAMA_CURL=OFF -DLLAMA_OPENSSL=OFF -DBUILD_SHARED_LIBS=OFF -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF > "$OUT/cmake.log" 2>&1 || { tail -30 "$OUT/cmake.log"; exit 1; }
cmake --build "$BUILD" --target llama-server llama-fit-params -j "$(nproc)" > "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
echo "built in $(( $(date +%s) - start )) s"
S=$BUILD/bin/llama-server; FP=$BUILD/bin/llama-fit-params
M=/tmp/synth
/tmp/node/node "$STAGE/make-models.mjs" "$STAGE/tiny-target.gguf" "$M" > /dev/null || exit 1
Q36=$M/Qwen3.6-35B-A3B-Q4_K_M.gguf; Q08=$M/Qwen3.5-0.8B-Q4_K_M.gguf
nvidia-smi --query-gpu=name,driver_version,memory.total,memory.used,memory.free --format=csv,noheader > "$OUT/gpu.txt"; cat "$OUT/gpu.txt"
FREE=$(nvidia-smi --query-gpu=memory.free --format=csv,noheader,nounits | head -1 | tr -d ' ')
# An RTX 4060 Laptop has 8188 MiB; keeping 1536 MiB free leaves 6652 MiB to use. llama.cpp's --fit-target is the
# MiB to leave free of what is free now, so on this GPU the same budget is FREE - 6652.
T=$((FREE - 6652)); echo "free $FREE MiB, -fitt $T" | tee "$OUT/budget.txt"
SEED=(-c 65536 -np 1 -ctk q4_0 -ctv q4_0)
DRAFT=(-md "$Q08" -ngld 99 --spec-type draft-simple)
fp() { local name=$1; shift; timeout 120 "$FP" -m "$Q36" "$@" > "$L/$name.out" 2> "$L/$name.err"; echo "$name rc=$? -> $(cat "$L/$name.out")" | tee -a "$OUT/fit-params.txt"; }
fp fitp-seed "${SEED[@]}" -fitt "$T" -lv 4
fp fitp-seed-draft "${SEED[@]}" -fitt "$T" "${DRAFT[@]}" -lv 4
fp fitp-seed-1024 "${SEED[@]}" -fitt $((FREE - 8188 + 1024)) -lv 4
fp fitp-print "${SEED[@]}" -fitp on
proc() { nvidia-smi --query-compute-apps=pid,used_memory --format=csv,noheader,nounits | awk -F', *' -v p="$1" '$1==p {print $2}'; }
waitready() { for _ in $(seq 1 900); do curl -sf http://127.0.0.1:18181/health > /dev/null 2>&1 && return 0; kill -0 "$1" 2> /dev/null || return 1; sleep 0.1; done; return 1; }
stopit() { kill -TERM "$1" 2> /dev/null; sleep 2; kill -INT "$1" 2> /dev/null; sleep 1; kill -KILL "$1" 2> /dev/null; wait "$1" 2> /dev/null; }
req() { curl -s -m 120 -o /dev/null -w '%{time_total}' http://127.0.0.1:18181/completion -d '{"prompt":"Hello there, how are","n_predict":16,"cache_prompt":false}'; }
printf 'config\tready_s\tproc_ready_mib\tproc_after_mib\trequest_s\n' > "$OUT/launch.tsv"
launch() {
  local name=$1; shift; local t0; t0=$(date +%s.%N)
  "$S" --host 127.0.0.1 --port 18181 -lv 4 -m "$Q36" "$@" > "$L/$name.log" 2>&1 & local pid=$!
  local rs=NA a=NA b=NA r=NA
  if waitready $pid; then rs=$(awk -v a="$(date +%s.%N)" -v b="$t0" 'BEGIN{printf "%.1f", a-b}'); sleep 1; a=$(proc $pid); r=$(req); sleep 1; b=$(proc $pid); fi
  stopit $pid; printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$rs" "${a:-NA}" "${b:-NA}" "$r" | tee -a "$OUT/launch.tsv"
}
launch llama-fit-seed "${SEED[@]}" -fitt "$T"
launch llama-fit-seed-draft "${SEED[@]}" -fitt "$T" "${DRAFT[@]}"
launch llama-fit-conflict "${SEED[@]}" -fitt "$T" --n-cpu-moe 34 -ngl 999
for n in 32 33 35 36; do launch ours-ncmoe$n "${SEED[@]}" -ngl 999 --n-cpu-moe $n; done
for n in 35 36 37 38; do launch ours-draft-ncmoe$n "${SEED[@]}" -ngl 999 --n-cpu-moe $n "${DRAFT[@]}"; done
echo "fit part done at $(( $(date +%s) - start )) s"
# Sleep and wake on CUDA: the seed placement with --sleep-idle-seconds 2.
{
  "$S" --host 127.0.0.1 --port 18181 -lv 4 -m "$Q36" "${SEED[@]}" -ngl 999 --n-cpu-moe 34 --sleep-idle-seconds 2 > "$L/sleep.log" 2>&1 & pid=$!
  waitready $pid && echo "ready"; r1=$(req); sleep 0.5; m_ready=$(proc $pid); echo "request (awake) ${r1}s, proc $m_ready MiB"
  for i in 1 2 3 4 5 6 7 8; do sleep 1; echo "t+${i}s proc $(proc $pid) MiB, sleeping lines $(grep -c 'entering sleeping state' "$L/sleep.log")"; done
  echo "health: $(curl -s -o /dev/null -w '%{http_code}' http://127.0.0.1:18181/health) exits=$(grep -c 'exiting sleeping state' "$L/sleep.log")"; sleep 0.5
  echo "props: $(curl -s -o /dev/null -w '%{http_code}' http://127.0.0.1:18181/props) exits=$(grep -c 'exiting sleeping state' "$L/sleep.log")"; sleep 0.5
  echo "metrics: $(curl -s -o /dev/null -w '%{http_code}' http://127.0.0.1:18181/metrics) exits=$(grep -c 'exiting sleeping state' "$L/sleep.log")"; sleep 0.5
  echo "models: $(curl -s -o /dev/null -w '%{http_code}' http://127.0.0.1:18181/v1/models) exits=$(grep -c 'exiting sleeping state' "$L/sleep.log")"; sleep 3
  echo "proc before wake $(proc $pid) MiB"
  r2=$(req); echo "request (waking) ${r2}s, exits=$(grep -c 'exiting sleeping state' "$L/sleep.log"), proc $(proc $pid) MiB"
  r3=$(req); echo "request (awake again) ${r3}s"
  for i in 1 2 3 4; do sleep 1; done; echo "after 4 s idle proc $(proc $pid) MiB, entries $(grep -c 'entering sleeping state' "$L/sleep.log")"
  echo "slots: $(curl -s -o /dev/null -w '%{http_code}' http://127.0.0.1:18181/slots) exits=$(grep -c 'exiting sleeping state' "$L/sleep.log")"
  stopit $pid
} 2>&1 | tee "$OUT/sleep.txt"
tar -czf "$OUT/logs.tar.gz" -C "$OUT" logs && rm -rf "$L"
echo "done in $(( $(date +%s) - start )) s"
