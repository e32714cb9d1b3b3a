#!/usr/bin/env bash
# Installs what is missing, then runs every test, stopping at the first failure:
# format, the manual (mdBook), lints (native and wasm), native tests, the exported model against the
# dense engine (Python), the wasm-bindgen-test suites in headless Chromium and Firefox, the release build of the page (wasm-opt,
# precompressed), and the end-to-end suite in Chromium, Firefox and WebKit.
#
# LOOM_E2E_PARALLEL=1 runs the three browsers' suites at once, each printed whole
# when it ends (default: one after another; at once, on a loaded 2-core machine
# the suites' timing checks fail).
set -euo pipefail
source "$(dirname "$0")/setup.sh"
setup_test
cd "$LOOM_ROOT"
# wasm-bindgen-test gives a browser test file 20 s by default; the transformer
# tests need more when the 2 cores are busy.
export WASM_BINDGEN_TEST_TIMEOUT="${WASM_BINDGEN_TEST_TIMEOUT:-120}"
# CI runs in a fresh clone: keep compiled crates between runs outside it
# (cargo decides what is stale; the first run on a machine builds everything).
if [ "${CI:-}" = true ] && [ -z "${CARGO_TARGET_DIR:-}" ]; then
  export CARGO_TARGET_DIR="$HOME/.cache/loom-playground/target"
fi

passed=0
stage() {
  local start=$SECONDS
  echo
  echo "==> $*"
  "$@"
  passed=$((passed + 1))
  echo "--- done in $((SECONDS - start)) s"
}

# Runs the wasm-bindgen-test suites in BROWSER (chromium | firefox): the same
# test binaries, driven through chromedriver or geckodriver.
wasm_tests() {
  local driver=()
  # .cargo/config.toml names chromedriver; wasm-bindgen-test-runner prefers GECKODRIVER when set.
  [ "$1" = firefox ] && driver=(env "GECKODRIVER=$(command -v geckodriver)" "GECKODRIVER_ARGS=--binary /usr/bin/firefox-esr")
  "${driver[@]}" cargo test -p loom-core --features wasm --target wasm32-unknown-unknown --test wasm_api
  "${driver[@]}" cargo test -p loom-app --target wasm32-unknown-unknown
}

# The end-to-end suite in every browser: at once (each suite's output is kept
# and printed whole, in order), or one after another. Fails if any suite failed.
e2e_all() {
  local browsers=(chromium firefox webkit) b status=0
  if [ "${LOOM_E2E_PARALLEL:-0}" != 1 ]; then
    for b in "${browsers[@]}"; do node tests/e2e/run.mjs "$b" || status=1; done
    return "$status"
  fi
  local logs pids=()
  logs="$(mktemp -d)"
  for b in "${browsers[@]}"; do
    node tests/e2e/run.mjs "$b" >"$logs/$b.log" 2>&1 &
    pids+=($!)
  done
  for i in "${!browsers[@]}"; do
    wait "${pids[$i]}" || status=1
    cat "$logs/${browsers[$i]}.log"
  done
  rm -rf "$logs"
  return "$status"
}

stage cargo fmt --all --check
# The manual builds (its links and SUMMARY are checked by core/tests/manual.rs, in cargo test);
# trunk build puts it in dist/book/ again.
stage mdbook build docs --dest-dir "$LOOM_ROOT/target/book"
stage cargo clippy --workspace --all-targets -- -D warnings
# The wasm-only code (the JS API, browser tests) is invisible to the native lint.
stage cargo clippy -p loom-core -p loom-app --features loom-core/wasm --target wasm32-unknown-unknown --all-targets \
  -- -D warnings
stage cargo test --workspace
# The exported model (ONNX in onnxruntime, the NumPy reference on the safetensors
# file) against `loom state` from the dense engine, bit for bit after every step.
stage cargo build --release --bin loom
stage "$LOOM_PYTHON" tests/export/check_export.py "${CARGO_TARGET_DIR:-target}/release/loom"
stage wasm_tests chromium
stage wasm_tests firefox
stage trunk build --release
stage e2e_all

echo
echo "stages: $passed passed, 0 failed"
