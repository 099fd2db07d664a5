# Shared by .ci/serve and .ci/test: install what is missing, quietly, and
# build the package. Sourced, not run.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export PATH="$HOME/.cargo/bin:$ROOT/tests/node_modules/.bin:$PATH"
WASM_BINDGEN_VERSION=$(sed -n 's/^wasm-bindgen = .*"=\([0-9.]*\)".*/\1/p' "$ROOT/Cargo.toml")
WASM_PACK_VERSION=0.15.1

say() { echo "setup: $*" >&2; }

# Runs a command with its output hidden, unless it fails.
quiet() {
  local log
  log=$(mktemp)
  if ! "$@" >"$log" 2>&1; then
    cat "$log" >&2
    rm -f "$log"
    return 1
  fi
  rm -f "$log"
}

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

APT_UPDATED=
apt_install() {
  if [ -z "$APT_UPDATED" ]; then
    quiet as_root apt-get update
    APT_UPDATED=1
  fi
  quiet as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y "$@"
}

setup() {
  if ! command -v cargo >/dev/null || ! command -v rustup >/dev/null; then
    echo "setup: Rust (cargo and rustup) is needed: see https://rustup.rs" >&2
    exit 1
  fi
  local components
  components=$(rustup component list --installed)
  for component in clippy rustfmt; do
    if ! grep -q "^$component" <<<"$components"; then
      say "adding the $component component"
      quiet rustup component add "$component"
    fi
  done
  if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
    say "adding the wasm32-unknown-unknown target"
    quiet rustup target add wasm32-unknown-unknown
  fi
  if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $WASM_BINDGEN_VERSION" ]; then
    say "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (a few minutes, once)"
    quiet cargo install wasm-bindgen-cli --version "=$WASM_BINDGEN_VERSION" --locked --force
  fi
  if [ "$(wasm-pack --version 2>/dev/null)" != "wasm-pack $WASM_PACK_VERSION" ]; then
    say "installing wasm-pack $WASM_PACK_VERSION (about two minutes, once)"
    quiet cargo install wasm-pack --version "=$WASM_PACK_VERSION" --locked --force
  fi
  if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    say "installing Node.js and npm"
    apt_install nodejs npm
  fi
  if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
    say "installing Chromium and chromedriver"
    apt_install chromium chromium-driver
  fi
  # npm ci when node_modules is missing or older than the lock file.
  if [ ! -f "$ROOT/tests/node_modules/.package-lock.json" ] ||
    [ "$ROOT/tests/package-lock.json" -nt "$ROOT/tests/node_modules/.package-lock.json" ]; then
    say "installing the JS tooling of tests/package.json (wasm-opt, esbuild, Playwright, TypeScript, msw, OpenTelemetry)"
    quiet npm ci --prefix "$ROOT/tests" --no-audit --no-fund
  fi
  if [ ! -f "$ROOT/tests/server/node_modules/.package-lock.json" ] ||
    [ "$ROOT/tests/server/package-lock.json" -nt "$ROOT/tests/server/node_modules/.package-lock.json" ]; then
    say "installing the server's test and benchmark tooling of tests/server/package.json (OpenAPI validator, ajv, autocannon, Prism, json-server, WireMock)"
    quiet npm ci --prefix "$ROOT/tests/server" --no-audit --no-fund
  fi
  local venv="$ROOT/tests/server/.venv"
  if ! command -v python3 >/dev/null || ! python3 -c "import ensurepip, venv" 2>/dev/null; then
    say "installing Python 3 with venv"
    apt_install python3 python3-venv
  fi
  if [ ! -x "$venv/bin/schemathesis" ] ||
    [ "$ROOT/tests/server/requirements.txt" -nt "$venv/bin/schemathesis" ]; then
    say "installing schemathesis into tests/server/.venv (tests/server/requirements.txt)"
    quiet python3 -m venv "$venv"
    quiet "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$ROOT/tests/server/requirements.txt"
    touch "$venv/bin/schemathesis"
  fi
  if [ ! -f "$ROOT/tests/compat/node_modules/.package-lock.json" ] ||
    [ "$ROOT/tests/compat/package-lock.json" -nt "$ROOT/tests/compat/node_modules/.package-lock.json" ]; then
    say "installing the tools of the compatibility fixtures, tests/compat/package.json (Jest, Vitest, Vite 7 and 8, webpack, Playwright Test, TypeScript)"
    # npm install, not npm ci: npm ci refuses this lock file for platform
    # packages of rollup it never installs on Linux ("Missing: @rollup/…"),
    # while npm install installs exactly what the lock file pins.
    quiet npm install --prefix "$ROOT/tests/compat" --no-audit --no-fund
  fi
}

# The release package in pkg/, ready to import or publish.
build_package() {
  (cd "$ROOT" && quiet wasm-pack build --release --target web --out-dir pkg)
  node "$ROOT/.ci/package.mjs"
}
