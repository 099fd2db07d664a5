# Shared by .ci/serve and .ci/test: install what is missing, quietly, and
# build the package. Sourced, not run. .ci/serve needs only setup_build;
# .ci/test runs setup_test.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export PATH="$HOME/.cargo/bin:$ROOT/node_modules/.bin:$ROOT/tests/node_modules/.bin:$PATH"
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

# What building and serving the package need: the Rust target, the pinned
# wasm-bindgen-cli, Node with npm, and the build's own npm tools
# (package.json at the root: wasm-opt from binaryen, and esbuild).
# wasm-pack is the tests' only (setup_test): the build does without it.
setup_build() {
  if ! command -v cargo >/dev/null || ! command -v rustup >/dev/null; then
    echo "setup: Rust (cargo and rustup) is needed: see https://rustup.rs" >&2
    exit 1
  fi
  if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
    say "adding the wasm32-unknown-unknown target"
    quiet rustup target add wasm32-unknown-unknown
  fi
  if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $WASM_BINDGEN_VERSION" ]; then
    say "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (a few minutes, once)"
    quiet cargo install wasm-bindgen-cli --version "=$WASM_BINDGEN_VERSION" --locked --force
  fi
  if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    say "installing Node.js and npm"
    apt_install nodejs npm
  fi
  npm_ci "$ROOT" "the build's tools of package.json (wasm-opt from binaryen, esbuild)"
}

# npm ci in a folder when its node_modules is missing or older than its
# lock file. Usage: npm_ci FOLDER WHAT
npm_ci() {
  if [ ! -f "$1/node_modules/.package-lock.json" ] ||
    [ "$1/package-lock.json" -nt "$1/node_modules/.package-lock.json" ]; then
    say "installing $2"
    quiet npm ci --prefix "$1" --no-audit --no-fund
  fi
}

# Everything the tests need: what the build needs, then wasm-pack, clippy and rustfmt,
# Chromium and chromedriver, the JS tooling of tests/, the server's test
# tools, newman, strip, buildah and podman for the container image's test, Python's venv
# with schemathesis, and the compatibility fixtures' runners and bundlers.
setup_test() {
  setup_build
  # wasm-pack runs the binding's tests in headless Chromium (wasm-pack test).
  # Compiled from crates.io: PyPI's wheel of wasm-pack, which would save
  # the compile, is not reachable through the CI machine's package registry.
  if [ "$(wasm-pack --version 2>/dev/null)" != "wasm-pack $WASM_PACK_VERSION" ]; then
    say "installing wasm-pack $WASM_PACK_VERSION (about two minutes, once)"
    quiet cargo install wasm-pack --version "=$WASM_PACK_VERSION" --locked --force
  fi
  local components
  components=$(rustup component list --installed)
  for component in clippy rustfmt; do
    if ! grep -q "^$component" <<<"$components"; then
      say "adding the $component component"
      quiet rustup component add "$component"
    fi
  done
  if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
    say "installing Chromium and chromedriver"
    apt_install chromium chromium-driver
  fi
  # container/tree.sh strips Node's binary (binutils); the test builds the
  # image with buildah and runs it with podman, on runc (tests/server/podman/).
  if ! command -v strip >/dev/null; then
    say "installing binutils (strip)"
    apt_install binutils
  fi
  if ! command -v buildah >/dev/null || ! command -v podman >/dev/null || ! command -v runc >/dev/null; then
    say "installing buildah, podman and runc (the container image's test)"
    apt_install buildah podman runc
  fi
  if ! command -v python3 >/dev/null || ! python3 -c "import ensurepip, venv" 2>/dev/null; then
    say "installing Python 3 with venv"
    apt_install python3 python3-venv
  fi
  # The npm and pip installs, each into a folder of its own, side by side:
  # on a fresh clone they took about 80 s one after another. npm's cache is
  # safe to share; a failed install stops the setup (wait returns its code).
  local js schemathesis compat
  setup_test_js & js=$!
  setup_schemathesis & schemathesis=$!
  setup_compat & compat=$!
  wait "$js"
  wait "$schemathesis"
  wait "$compat"
}

# The JS tooling of tests/, the server's, and newman.
setup_test_js() {
  npm_ci "$ROOT/tests" "the JS tooling of tests/package.json (Playwright, TypeScript, msw, OpenTelemetry, ESLint)"
  npm_ci "$ROOT/tests/server" "the server's test and benchmark tooling of tests/server/package.json (OpenAPI validator and linters, ajv, autocannon, Prism, json-server, WireMock, Pact)"
  npm_ci "$ROOT/tests/postman" "newman, which runs the Postman collection against the container image's tree (tests/postman/package.json)"
}

# Python's venv with schemathesis (tests/server/requirements.txt).
setup_schemathesis() {
  local venv="$ROOT/tests/server/.venv"
  if [ ! -x "$venv/bin/schemathesis" ] ||
    [ "$ROOT/tests/server/requirements.txt" -nt "$venv/bin/schemathesis" ]; then
    say "installing schemathesis into tests/server/.venv (tests/server/requirements.txt)"
    quiet python3 -m venv "$venv"
    quiet "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$ROOT/tests/server/requirements.txt"
    touch "$venv/bin/schemathesis"
  fi
}

# The compatibility fixtures' runners and bundlers (tests/compat).
setup_compat() {
  if [ ! -f "$ROOT/tests/compat/node_modules/.package-lock.json" ] ||
    [ "$ROOT/tests/compat/package-lock.json" -nt "$ROOT/tests/compat/node_modules/.package-lock.json" ]; then
    say "installing the tools of the compatibility fixtures, tests/compat/package.json (Jest, Vitest, Vite 7 and 8, webpack, Playwright Test, TypeScript)"
    # npm install, not npm ci: npm ci refuses this lock file for platform
    # packages of rollup it never installs on Linux ("Missing: @rollup/…"),
    # while npm install installs exactly what the lock file pins.
    quiet npm install --prefix "$ROOT/tests/compat" --no-audit --no-fund
  fi
}

# The release package in pkg/, ready to import or publish: what
# `wasm-pack build --release --target web` made, without wasm-pack. The
# crate for wasm32, the pinned wasm-bindgen's glue, wasm-opt with the
# flags of Cargo.toml ([package.metadata.wasm-pack.profile.release], their
# one source), and wasm-pack's package.json; then .ci/package.mjs.
build_package() {
  local wasm="$ROOT/pkg/orderpay_bg.wasm"
  (cd "$ROOT" && quiet cargo build --locked --lib --release --target wasm32-unknown-unknown)
  # Over what pkg/ holds, as wasm-pack did: .ci/package.mjs replaces its own folders.
  quiet wasm-bindgen --target web --typescript --out-dir "$ROOT/pkg" \
    "${CARGO_TARGET_DIR:-$ROOT/target}/wasm32-unknown-unknown/release/orderpay.wasm"
  local listed flags
  listed=$(node "$ROOT/.ci/cargo-manifest.mjs" wasm-opt-flags)
  mapfile -t flags <<<"$listed"
  quiet wasm-opt "$wasm" -o "$wasm.opt" "${flags[@]}"
  mv "$wasm.opt" "$wasm"
  node "$ROOT/.ci/cargo-manifest.mjs" package-json >"$ROOT/pkg/package.json"
  printf "*" >"$ROOT/pkg/.gitignore"
  node "$ROOT/.ci/package.mjs"
  touch "$ROOT/pkg/.built"
}

# build_package, unless pkg/ was built after the last change to what goes
# into it (the crate, its lock file, the JS layer, the build scripts): a
# second `npm start` with nothing changed serves at once.
build_package_if_changed() {
  local stamp="$ROOT/pkg/.built"
  if [ -f "$stamp" ] && [ -z "$(cd "$ROOT" && find Cargo.toml Cargo.lock package.json src .ci -newer "$stamp" -print -quit)" ]; then
    say "pkg/ is up to date"
    return
  fi
  echo "building the package..." >&2
  build_package
}
