#!/usr/bin/env bash
# Runs the end-to-end suite (tests/e2e/) against the release build in one browser,
# installing the browser and its WebDriver server first if they are missing.
#
#   bash scripts/e2e.sh chromium|firefox|webkit [--grep TEXT] [SPEC ...]
#
# Screenshots go to tests/e2e/out/BROWSER/. LOOM_E2E_NO_BUILD=1 tests dist/ as it is.
set -euo pipefail
source "$(dirname "$0")/setup.sh"
browser="${1:?usage: bash scripts/e2e.sh chromium|firefox|webkit [--grep TEXT] [SPEC ...]}"
shift
setup_build
setup_browser "$browser"
cd "$LOOM_ROOT"
[ -n "${LOOM_E2E_NO_BUILD:-}" ] || trunk build --release
exec node tests/e2e/run.mjs "$browser" "$@"
