#!/usr/bin/env bash
# Stages what energy-on-gpu.sh needs into .device/energy (git-ignored): this machine's node, the CLI's runtime
# packages (no renderer ones) and the test llama-server with its libraries, each xz-compressed; builds the CLI.
set -euo pipefail
mkdir -p .device/energy
npm run build:cli
npm ls --omit=dev --all --parseable | grep node_modules | sed "s|$PWD/||" | sort -u |
  grep -vE 'react|lucide|uplot|zustand|electron-log|csstype|scheduler' >.device/energy/packages.txt
tar cf - $(cat .device/energy/packages.txt) | xz -T2 -6 >.device/energy/node_modules.tar.xz
xz -T2 -6 -c "$(command -v node)" >.device/energy/node.xz
tar cf - -C "$(dirname "$(node scripts/llama-server-build.mjs)")" . | xz -T2 -6 >.device/energy/llama-server.tar.xz
