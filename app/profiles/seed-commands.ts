/** The launch commands from the seed reports (users' field reports), verbatim. */

/** Seed 000: RTX 4060 Laptop 8 GB, Qwen3.6-35B-A3B, experts on the CPU, draft model (arguments only). */
export const SEED_4060_QWEN36 = `-ngl 999 --n-cpu-moe 34 -c 65536 --parallel 1 --no-mmap \\
--cache-type-k q4_0 --cache-type-v q4_0 \\
--temp 0.6 --top-k 20 --top-p 0.95 --min-p 0 --presence-penalty 1.5 \\
-md Qwen3.5-0.8B-Q4_K_M.gguf -ngld 99 --reasoning off`

/** Seed 004: RTX 3090, ik_llama.cpp, APEX I-Compact. */
export const SEED_3090_IK_I_COMPACT = `/root/ik_llama.cpp/build/bin/llama-server \\
  -m /models/Qwen3.6-35B-A3B-APEX-MTP-I-Compact.gguf \\
  -b 4096 -ub 1024 --cache-ram 4096 --parallel-tool-calls \\
  --recurrent-ckpt-mode auto --merge-qkv \\
  -c 196608 -np 1 --no-mmap --mlock \\
  -ctk q8_0 -ctv q5_0 -vhad -vhad -ngl 99 \\
  --jinja --reasoning-budget 0 --flash-attn on \\
  --host 0.0.0.0 --port 8000`

/** Seed 004: RTX 3090, buun-llama-cpp, APEX I-Quality, turbo8/turbo4 KV cache. */
export const SEED_3090_BUUN_I_QUALITY = `/root/buun-llama-cpp/build/bin/llama-server \\
  -m /models/Qwen3.6-35B-A3B-APEX-MTP-I-Quality.gguf \\
  --host 0.0.0.0 --port 8000 --no-warmup -c 131072 -np 1 \\
  --no-mmap --mlock -ctk turbo8 -ctv turbo4 \\
  --jinja --reasoning-budget 0 --flash-attn on`
