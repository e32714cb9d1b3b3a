# Installs what building, serving and testing the playground need, skipping
# whatever is already there; sourced by scripts/serve.sh, scripts/e2e.sh and
# scripts/test.sh. Only crates.io, npm and Debian's packages are used (GitHub is
# unreachable, so Trunk runs offline with the cargo-installed wasm-bindgen and
# npm's wasm-opt).
#
#   setup_build            the wasm target, Trunk, mdBook (the manual), wasm-bindgen-cli
#                          and node_modules (binaryen's wasm-opt): enough to build and
#                          serve the page
#   setup_browser NAME...  a browser and its WebDriver server: chromium | firefox | webkit
#   setup_test             setup_build plus all three browsers and setup_python
#   setup_python           a virtual environment with tools/requirements.txt (numpy,
#                          onnxruntime, onnx, safetensors from PyPI) for the export
#                          test; sets LOOM_PYTHON

set -euo pipefail
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"

TRUNK_VERSION=0.21.14
MDBOOK_VERSION=0.5.4
GECKODRIVER_VERSION=0.37.1
LOOM_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# npm's binaryen (wasm-opt) first: Debian's older /usr/bin/wasm-opt breaks the
# page's wasm, and Trunk.toml pins the version so any other one fails loudly.
export PATH="$LOOM_ROOT/node_modules/.bin:$PATH"
# Outside the clone, so a fresh clone (CI) reuses it; rebuilt when the requirements change.
LOOM_VENV="${LOOM_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/loom/venv}"

say() { echo "setup: $*"; }

# The wasm-bindgen version Cargo.lock resolved; the CLI must match it exactly.
wasm_bindgen_version() {
  awk '/^name = "wasm-bindgen"$/ { getline; gsub(/"/, "", $3); print $3; exit }' "$LOOM_ROOT/Cargo.lock"
}

# Installs Debian packages (one apt-get update per shell, and none when nothing is missing).
apt_install() {
  [ "$#" -gt 0 ] || return 0
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  say "installing Debian's $*"
  if [ -z "${LOOM_APT_UPDATED:-}" ]; then
    $sudo apt-get update
    LOOM_APT_UPDATED=1
  fi
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y "$@"
}

# The hash of FILE, and whether STAMP holds it: what was installed from FILE is current.
file_hash() { sha256sum "$1" | cut -d' ' -f1; }
stamp_matches() { [ "$(cat "$2" 2>/dev/null)" = "$(file_hash "$1")" ]; }

setup_node_modules() {
  if ! command -v npm >/dev/null; then
    apt_install nodejs npm
  fi
  # node_modules is current when it was installed from this exact lockfile.
  local lock="$LOOM_ROOT/package-lock.json" stamp="$LOOM_ROOT/node_modules/.loom-lock.sha256"
  if ! stamp_matches "$lock" "$stamp"; then
    say "installing npm packages from package-lock.json (npm ci)"
    (cd "$LOOM_ROOT" && npm ci --no-audit --no-fund)
    file_hash "$lock" >"$stamp"
  fi
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
  if [ "$(mdbook --version 2>/dev/null)" != "mdbook v$MDBOOK_VERSION" ]; then
    # Without the default features (a live-reload server, a file watcher): only `mdbook build` is used.
    say "installing mdbook $MDBOOK_VERSION with cargo (a few minutes)"
    cargo install mdbook --version "$MDBOOK_VERSION" --locked --no-default-features --features search
  fi
  local wb
  wb="$(wasm_bindgen_version)"
  if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $wb" ] ||
    [ "$(wasm-bindgen-test-runner --version 2>/dev/null)" != "wasm-bindgen-test-runner $wb" ]; then
    # Without --locked: the CLI's own lockfile wants a crate version the registry lacks.
    say "installing wasm-bindgen-cli $wb with cargo (a few minutes)"
    cargo install wasm-bindgen-cli --version "$wb" --force
  fi
  setup_node_modules
}

# The packages (Debian's) a browser needs that are missing; the cargo-built
# geckodriver is installed here directly.
missing_browser_packages() {
  case "$1" in
    chromium)
      [ -x /usr/bin/chromium ] || echo chromium
      [ -x /usr/bin/chromedriver ] || echo chromium-driver
      ;;
    firefox)
      [ -x /usr/bin/firefox-esr ] || echo firefox-esr
      ;;
    webkit)
      [ -x /usr/bin/WebKitWebDriver ] || echo webkit2gtk-driver
      [ -x /usr/bin/xvfb-run ] || echo xvfb
      ;;
    *)
      echo "setup: unknown browser $1 (chromium | firefox | webkit)" >&2
      return 1
      ;;
  esac
}

setup_browser() {
  local name pkgs=()
  for name in "$@"; do
    mapfile -t -O "${#pkgs[@]}" pkgs < <(missing_browser_packages "$name")
  done
  apt_install "${pkgs[@]}"
  for name in "$@"; do
    if [ "$name" = firefox ] && [ "$(geckodriver --version 2>/dev/null | awk 'NR == 1')" != "geckodriver $GECKODRIVER_VERSION" ]; then
      say "installing geckodriver $GECKODRIVER_VERSION with cargo (a few minutes)"
      cargo install geckodriver --version "$GECKODRIVER_VERSION" --locked
    fi
  done
}

setup_test() {
  setup_build
  setup_browser chromium firefox webkit
  setup_python
}

setup_python() {
  if ! python3 -c 'import venv, ensurepip' 2>/dev/null; then
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
