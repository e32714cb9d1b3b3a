#!/usr/bin/env bash
# Installs what is missing, then builds and serves the playground on localhost,
# rebuilding on every edit. PORT=8080 by default.
set -euo pipefail
source "$(dirname "$0")/setup.sh"
setup_build
cd "$LOOM_ROOT"
PORT="${PORT:-8080}"
echo "serve: building; the playground will be at http://127.0.0.1:$PORT/ (Ctrl+C stops)"
exec trunk serve --address 127.0.0.1 --port "$PORT"
