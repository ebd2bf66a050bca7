#!/usr/bin/env bash
# Fresh machine → running portal: Node bootstrap, npm install, build, then the gate on SQLite (data/).
set -euo pipefail
cd "$(dirname "$0")/.."
export ASTRO_TELEMETRY_DISABLED=1
source scripts/use-node.sh
npm install --no-audit --no-fund --loglevel=error
# The portal itself has no default allow-list; a first run here gets the reserved example domains, and says so.
if [ -z "${AUTH_ALLOWED_DOMAINS:-}" ] && [ -z "${AUTH_ALLOWED_EMAILS:-}" ]; then
  export AUTH_ALLOWED_DOMAINS="b1.example.com,b1.example.com.br,semente.example.org"
  echo "==> AUTH_ALLOWED_DOMAINS não definido: usando os domínios de exemplo ($AUTH_ALLOWED_DOMAINS). Defina os domínios reais da empresa (veja .env.example)."
fi
npm start
