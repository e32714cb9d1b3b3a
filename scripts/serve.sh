#!/usr/bin/env bash
# Installs what is missing, then builds and serves the playground on localhost.
# PORT=8080 by default.
#
#   bash scripts/serve.sh           the release build (wasm-opt, precompressed:
#                                   served as brotli or gzip by scripts/serve.mjs),
#                                   the manual beside it at /book/
#   bash scripts/serve.sh --watch   trunk serve: a debug build, rebuilt on every edit
set -euo pipefail
source "$(dirname "$0")/setup.sh"
setup_build
cd "$LOOM_ROOT"
PORT="${PORT:-8080}"
if [ "${1:-}" = --watch ]; then
  echo "serve: building; the playground will be at http://127.0.0.1:$PORT/, the manual at /book/ (rebuilt on every edit; Ctrl+C stops)"
  exec trunk serve --address 127.0.0.1 --port "$PORT"
fi
trunk build --release
exec node scripts/serve.mjs dist "$PORT"
