#!/usr/bin/env bash
# Stages what idle-on-gpu.sh needs into .device/idle (git-ignored): the CLI bundled whole (koffi, which is
# native, beside it) at BASE_REV (default HEAD) and from the working tree, the idle measurer and the NVML
# call timer, the outside reader. The CUDA build's source comes from stage.sh (run it first).
set -eu
cd "$(dirname "$0")/../.."
STAGE=.device/idle
BASE_REV=${BASE_REV:-HEAD}
rm -rf "$STAGE" && mkdir -p "$STAGE/node_modules/@koromix"
cp -r node_modules/koffi node_modules/node-sqlite3-wasm "$STAGE/node_modules/"
cp -r node_modules/@koromix/koffi-linux-x64 "$STAGE/node_modules/@koromix/"
# What travels to the GPU machine is limited (64 MiB with the repository): koffi without its docs and sources.
rm -rf "$STAGE"/node_modules/@koromix/koffi-linux-x64/musl_x64 "$STAGE"/node_modules/koffi/{doc,vendor,src/cnoke,CHANGELOG.md}
bundle() { # entry outDir fileName [root]
  node -e "
import('vite').then(({ build }) => build({ root: '${4:-.}', configFile: false, logLevel: 'warn', ssr: { noExternal: true, external: ['koffi', 'node-sqlite3-wasm'] },
  define: { __LLAMA_TRAY_VERSION__: JSON.stringify('idle-stage') },
  build: { ssr: '$1', outDir: '$2', emptyOutDir: false, target: 'node20',
    rollupOptions: { external: [/^node:/, 'koffi', 'node-sqlite3-wasm'], output: { format: 'es', entryFileNames: '$3', codeSplitting: false } } } }))"
}
bundle app/cli/main.ts "$STAGE" now.mjs
bundle benchmarks/measure/idle-device.ts "$STAGE" idle-device.mjs
bundle benchmarks/measure/nvml-calls.ts "$STAGE" nvml-calls.mjs
bundle benchmarks/measure/tick-trace.ts "$STAGE" trace.mjs
cp benchmarks/measure/outside-cpu.sh "$STAGE/"
work=$(mktemp -d)
git archive "$BASE_REV" | tar -x -C "$work"
ln -s "$PWD/node_modules" "$work/node_modules"
(cd "$work" && bundle app/cli/main.ts "$work/out-stage" base.mjs "$work")
cp "$work/out-stage/base.mjs" "$STAGE/"
rm -rf "$work"
echo "base: $(git rev-parse --short "$BASE_REV")" > "$STAGE/revs.txt"
# DEVICE_COPY=<folder>: also gather everything idle-on-gpu.sh needs in one folder (the device tool carries it
# from another checkout): node, the CUDA source and model generator of stage.sh, these scripts.
if [ -n "${DEVICE_COPY:-}" ]; then
  mkdir -p "$DEVICE_COPY/gpu"
  cp .device/node.xz "$DEVICE_COPY/"
  cp -r .device/gpu/make-models.mjs .device/gpu/assets "$DEVICE_COPY/gpu/"
  # The web UI's sources and the benches are not built (LLAMA_BUILD_UI=OFF): 2 MB less of the 64 MiB that travel.
  src=$(mktemp -d)
  tar -xJf .device/gpu/llama-src.tar.xz -C "$src" && rm -rf "$src"/tools/ui/src "$src"/tools/ui/tests "$src"/benches
  tar -C "$src" -cJf "$DEVICE_COPY/gpu/llama-src.tar.xz" . && rm -rf "$src"
  rm -rf "$DEVICE_COPY/idle" && cp -r "$STAGE" "$DEVICE_COPY/idle"
  cp benchmarks/gpu-calibration/run-on-gpu.sh benchmarks/gpu-calibration/idle-on-gpu.sh "$DEVICE_COPY/"
  du -sh "$DEVICE_COPY"
fi
du -sh "$STAGE"
