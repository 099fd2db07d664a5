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
source tests/bench/callgrind.sh
count() {
  local instructions
  instructions=$(counted "$out" "$1" --smc-check=all-non-file node tests/bench/boundary-workload.mjs "$pkg" "$entry" "$1")
  echo "$instructions $(requests_in "$out" "$1")"
}
read -r i1 r1 < <(count "$small")
read -r i2 r2 < <(count "$large")
per=$(( (i2 - i1) / (r2 - r1) ))
echo "{\"package\":\"$pkg\",\"entry\":\"$entry\",\"clients\":[$small,$large],\"requests\":[$r1,$r2],\"instructions\":[$i1,$i2],\"instructionsPerRequest\":$per}"
