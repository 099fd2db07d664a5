#!/usr/bin/env bash
# CPU instructions per request through the package's JS layer and the
# module, in Node, counted by callgrind (counts barely move with the
# machine's load, where times on a shared machine move by 20% from run to
# run). Two runs of tests/bench/boundary-workload.mjs with different numbers
# of clients; the difference of their totals over the difference of their
# requests leaves out Node's start-up and the module's compilation. V8's
# tiering makes the count move a little from run to run: about 1%.
# Usage: bash tests/bench/boundary-instructions.sh [PKG_DIR] [fetch|handle] [small] [large]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
pkg=$(cd "${1:-pkg}" && pwd)
entry=${2:-fetch}
small=${3:-500}
large=${4:-2000}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
count() {
  valgrind --tool=callgrind --smc-check=all-non-file --callgrind-out-file="$out/cg.$1" \
    node tests/bench/boundary-workload.mjs "$pkg" "$entry" "$1" >"$out/run.$1" 2>"$out/log.$1"
  local instructions requests
  instructions=$(grep -m1 '^summary:' "$out/cg.$1" | awk '{print $2}')
  requests=$(grep -o '"requests":[0-9]*' "$out/run.$1" | cut -d: -f2)
  echo "$instructions $requests"
}
read -r i1 r1 < <(count "$small")
read -r i2 r2 < <(count "$large")
per=$(( (i2 - i1) / (r2 - r1) ))
echo "{\"package\":\"$pkg\",\"entry\":\"$entry\",\"clients\":[$small,$large],\"requests\":[$r1,$r2],\"instructions\":[$i1,$i2],\"instructionsPerRequest\":$per}"
