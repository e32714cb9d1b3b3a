#!/usr/bin/env bash
# Installs what is missing, then runs every test, stopping at the first failure:
# format, lints (native and wasm), native tests, the exported model against the
# dense engine (Python), browser tests (wasm-bindgen-test
# in headless Chromium), the release build of the page, and the end-to-end test.
set -euo pipefail
source "$(dirname "$0")/setup.sh"
setup_test
cd "$LOOM_ROOT"
# wasm-bindgen-test gives a browser test file 20 s by default; the transformer
# tests need more when the 2 cores are busy.
export WASM_BINDGEN_TEST_TIMEOUT="${WASM_BINDGEN_TEST_TIMEOUT:-120}"

passed=0
stage() {
  local start=$SECONDS
  echo
  echo "==> $*"
  "$@"
  passed=$((passed + 1))
  echo "--- done in $((SECONDS - start)) s"
}

stage cargo fmt --all --check
stage cargo clippy --workspace --all-targets -- -D warnings
# The wasm-only code (the JS API, browser tests) is invisible to the native lint.
stage cargo clippy -p loom-core -p loom-app --features loom-core/wasm --target wasm32-unknown-unknown --all-targets \
  -- -D warnings
stage cargo test --workspace
# The exported model (ONNX in onnxruntime, the NumPy reference on the safetensors
# file) against `loom state` from the dense engine, bit for bit after every step.
stage cargo build --release --bin loom
stage "$LOOM_PYTHON" tests/export/check_export.py target/release/loom
stage cargo test -p loom-core --features wasm --target wasm32-unknown-unknown --test wasm_api
stage cargo test -p loom-app --target wasm32-unknown-unknown
stage trunk build --release
stage node tests/e2e/playground.mjs
# The editor bridge (CodeMirror and its textarea fallback) on its own test page.
SHOTS="$LOOM_ROOT/tests/e2e/out/editor" stage node www/editor/test/editor.test.mjs

echo
echo "stages: $passed passed, 0 failed"
