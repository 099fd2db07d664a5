#!/usr/bin/env bash
# CPU instructions per order of the test-data endpoint at count=10000,
# natively, counted by callgrind (instruction counts do not depend on how
# busy the machine is): one call of count=10000 and one of count=1, each
# on a fresh service (tests/bench/reads.rs, `testdata N`); their
# difference over 9,999 orders leaves out start-up and set-up. At the
# default logCapacity of 10,000, the records of the first 8,000 orders
# are passed over (see the README), as in a real call of that count.
# Usage: bash tests/bench/testdata-instructions.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
cargo bench --quiet --bench reads --no-run 2>/dev/null
bin=$(ls -t target/release/deps/reads-* | grep -v '\.d$' | head -1)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
source tests/bench/callgrind.sh
count() {
  local instructions
  instructions=$(counted "$out" "$1" "$bin" testdata "$1")
  grep -q '"code":0' "$out/run.$1"
  echo "$instructions"
}
one=$(count 1)
full=$(count 10000)
per=$(( (full - one) / 9999 ))
echo "{\"count\":10000,\"instructions\":[$one,$full],\"instructionsPerOrder\":$per}"
