#!/usr/bin/env bash
# Fresh machine → running portal: Node bootstrap, npm install, build, then the gate on SQLite (data/).
set -euo pipefail
cd "$(dirname "$0")/.."
export ASTRO_TELEMETRY_DISABLED=1
source scripts/use-node.sh
npm install --no-audit --no-fund --loglevel=error
npm start
