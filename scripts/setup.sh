# Installs what building, serving and testing the playground need, skipping
# whatever is already there; sourced by scripts/serve.sh and scripts/test.sh.
# Only crates.io, npm and Debian's packages are used (GitHub is unreachable, so
# Trunk runs offline with the cargo-installed wasm-bindgen and no wasm-opt).
#
#   setup_build   the wasm target, Trunk and wasm-bindgen-cli (enough to serve)
#   setup_test    setup_build plus Chromium, ChromeDriver, node_modules and setup_python
#   setup_python  a virtual environment with tools/requirements.txt (numpy, onnxruntime,
#                 onnx, safetensors from PyPI) for the export test; sets LOOM_PYTHON

set -euo pipefail
export PATH="$HOME/.cargo/bin:$PATH"

TRUNK_VERSION=0.21.14
LOOM_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# Outside the clone, so a fresh clone (CI) reuses it; rebuilt when the requirements change.
LOOM_VENV="${LOOM_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/loom/venv}"

say() { echo "setup: $*"; }

# Debian packages, with sudo unless root (the package lists are updated first).
apt_install() {
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update
  $sudo apt-get install -y "$@"
}

# The hash of FILE, and whether STAMP holds it: what was installed from FILE is current.
file_hash() { sha256sum "$1" | cut -d' ' -f1; }
stamp_matches() { [ "$(cat "$2" 2>/dev/null)" = "$(file_hash "$1")" ]; }

# The wasm-bindgen version Cargo.lock resolved; the CLI must match it exactly.
wasm_bindgen_version() {
  awk '/^name = "wasm-bindgen"$/ { getline; gsub(/"/, "", $3); print $3; exit }' "$LOOM_ROOT/Cargo.lock"
}

setup_build() {
  # grep without -q reads all input, so pipefail never sees rustup die of SIGPIPE.
  if ! rustup target list --installed | grep -x wasm32-unknown-unknown >/dev/null; then
    say "adding the Rust target wasm32-unknown-unknown"
    rustup target add wasm32-unknown-unknown
  fi
  if [ "$(trunk --version 2>/dev/null)" != "trunk $TRUNK_VERSION" ]; then
    # --debug: builds in a third of the time and serves/builds just as fast.
    say "installing trunk $TRUNK_VERSION with cargo (a few minutes)"
    cargo install trunk --version "$TRUNK_VERSION" --locked --debug
  fi
  local wb
  wb="$(wasm_bindgen_version)"
  if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $wb" ] ||
    [ "$(wasm-bindgen-test-runner --version 2>/dev/null)" != "wasm-bindgen-test-runner $wb" ]; then
    # Without --locked: the CLI's own lockfile wants a crate version the registry lacks.
    say "installing wasm-bindgen-cli $wb with cargo (a few minutes)"
    cargo install wasm-bindgen-cli --version "$wb" --force
  fi
}

setup_test() {
  setup_build
  if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then
    say "installing Debian's chromium and chromium-driver"
    apt_install chromium chromium-driver
  fi
  # node_modules is current when it was installed from this exact lockfile.
  local lock="$LOOM_ROOT/package-lock.json" stamp="$LOOM_ROOT/node_modules/.loom-lock.sha256"
  if ! stamp_matches "$lock" "$stamp"; then
    say "installing npm packages from package-lock.json (npm ci)"
    (cd "$LOOM_ROOT" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund)
    file_hash "$lock" >"$stamp"
  fi
  setup_python
}

setup_python() {
  if ! python3 -c 'import venv, ensurepip' 2>/dev/null; then
    say "installing Debian's python3 and python3-venv"
    apt_install python3 python3-venv
  fi
  # The environment is current when it was built from these exact requirements.
  local requirements="$LOOM_ROOT/tools/requirements.txt" stamp="$LOOM_VENV/.loom-requirements.sha256"
  if ! stamp_matches "$requirements" "$stamp" || [ ! -x "$LOOM_VENV/bin/python" ]; then
    say "creating the Python environment $LOOM_VENV from tools/requirements.txt (PyPI)"
    rm -rf "$LOOM_VENV"
    python3 -m venv "$LOOM_VENV"
    "$LOOM_VENV/bin/pip" install --quiet --disable-pip-version-check --no-input -r "$requirements"
    file_hash "$requirements" >"$stamp"
  fi
  export LOOM_PYTHON="$LOOM_VENV/bin/python"
}
