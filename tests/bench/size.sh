#!/usr/bin/env bash
# Where the bytes of the release .wasm go, grouped by what the code does.
# Builds the release module, runs wasm-bindgen and wasm-opt as the
# package build does but keeping the function names (-g), and sums
# `twiggy top` by name. The names section is left out of the total, so the
# total is close to the package's orderpay_bg.wasm. Also prints that file's
# size and gzipped size when pkg/ is built (source .ci/lib.sh; build_package).
# Needs twiggy (cargo install twiggy).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
source "$ROOT/.ci/lib.sh"
cd "$ROOT"
cargo build --quiet --release --lib --target wasm32-unknown-unknown
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
wasm-bindgen target/wasm32-unknown-unknown/release/orderpay.wasm --out-dir "$work" --target web
# The package's wasm-opt flags, from Cargo.toml as the build reads them, and -g.
mapfile -t flags <<<"$(node .ci/cargo-manifest.mjs wasm-opt-flags)"
wasm-opt "${flags[@]}" -g "$work/orderpay_bg.wasm" -o "$work/named.wasm"
twiggy top -n 100000 --format csv "$work/named.wasm" | node -e '
const groups = [
  ["serde, serde_json, serde-wasm-bindgen", /serde/],
  ["data segments (.rodata: messages, tables)", /^data segment/],
  ["number formatting and parsing (float Display and FromStr of core, or orderpay::json::number)", /flt2dec|dec2flt|fmt::float|f64 as core[^ ]*::(str|fmt)|orderpay::json::number/],
  ["other formatting (core::fmt)", /core(\[[0-9a-f]+\])?::fmt|escape_debug|unicode::printable/],
  ["allocator (dlmalloc, then talc)", /dlmalloc|talc|__rdl_|__rust_(alloc|dealloc|realloc)/],
  ["gateway", /orderpay::gateway/],
  ["binding (orderpay::wasm, wasm-bindgen, js-sys)", /orderpay::wasm|wasm_bindgen|js_sys|^__wbg|^__wbindgen/],
  ["records, spans, exports", /orderpay::observe/],
  ["service, snapshots, test data", /orderpay::service/],
  ["JSON reader and writer", /orderpay::json/],
  ["orders and payments", /orderpay::domain/],
  ["simulation, hash tables", /orderpay::sim|hashbrown/],
  ["other std: alloc, core, panics, strings, collections (and the wasm-bindgen shims the core is inlined into)", /./],
];
const sums = new Map(groups.map(([name]) => [name, 0]));
let total = 0;
const lines = require("fs").readFileSync(0, "utf8").trim().split("\n").slice(1);
for (const line of lines) {
  const m = /^(.*),(\d+),[^,]*,[^,]*,[^,]*$/.exec(line);
  if (!m) continue;
  const name = m[1].replace(/^"|"$/g, "").replace(/""/g, "\"");
  if (name.includes("function names") || name.startsWith("Σ") || name.startsWith("... and")) continue;
  const bytes = Number(m[2]);
  total += bytes;
  const [group] = groups.find(([, re]) => re.test(name));
  sums.set(group, sums.get(group) + bytes);
}
for (const [name, bytes] of [...sums].sort((a, b) => b[1] - a[1])) console.log(`${String(bytes).padStart(8)}  ${name}`);
console.log(`${String(total).padStart(8)}  total (without the names section)`);
'
if [ -f pkg/orderpay_bg.wasm ]; then
  echo "pkg/orderpay_bg.wasm: $(wc -c <pkg/orderpay_bg.wasm) bytes, $(gzip -9 -c pkg/orderpay_bg.wasm | wc -c) gzipped"
fi
