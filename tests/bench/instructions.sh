#!/usr/bin/env bash
# CPU instructions per request of the typical flow, natively, counted by
# callgrind: instruction counts do not depend on how busy the machine is.
# Two runs of the throughput workload (tests/bench/throughput.rs), one
# round each, with different numbers of clients; the difference of their
# totals over the difference of their requests leaves out start-up and
# set-up. Usage: bash tests/bench/instructions.sh [small] [large]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
small=${1:-2000}
large=${2:-6000}
cargo bench --quiet --bench throughput --no-run 2>/dev/null
bin=$(ls -t target/release/deps/throughput-* | grep -v '\.d$' | head -1)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
source tests/bench/callgrind.sh
count() {
  echo "$(counted "$out" "$1" "$bin" "$1" 1) $(requests_in "$out" "$1")"
}
read -r i1 r1 < <(count "$small")
read -r i2 r2 < <(count "$large")
per=$(( (i2 - i1) / (r2 - r1) ))
echo "{\"clients\":[$small,$large],\"requests\":[$r1,$r2],\"instructions\":[$i1,$i2],\"instructionsPerRequest\":$per}"
