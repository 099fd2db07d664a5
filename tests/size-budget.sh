#!/usr/bin/env bash
# The size budget of the package's release .wasm: at most 160 KiB gzipped
# (163,840 bytes, `gzip -9`), a guard against bloat rather than a target:
# bytes are cut only when a build is over it. Prints the bytes, the gzipped bytes and the budget; exits 1 when
# the module is over it, 2 when it cannot be read or the budget is no
# number.
# Usage: bash tests/size-budget.sh pkg/orderpay_bg.wasm
# SIZE_BUDGET_GZIP=BYTES sets another budget (to see it fail, say).
set -euo pipefail
wasm=${1:?usage: bash tests/size-budget.sh path/to/module.wasm}
budget=${SIZE_BUDGET_GZIP:-163840}
case $budget in
  '' | *[!0-9]*)
    echo "size budget: SIZE_BUDGET_GZIP must be a whole number of bytes, got '$budget'" >&2
    exit 2
    ;;
esac
if [ ! -r "$wasm" ]; then
  echo "size budget: cannot read $wasm" >&2
  exit 2
fi
bytes=$(wc -c <"$wasm")
gzipped=$(gzip -9 -c "$wasm" | wc -c)
echo "$wasm: $bytes bytes, $gzipped bytes gzipped (gzip -9), budget $budget bytes gzipped"
if [ "$gzipped" -gt "$budget" ]; then
  echo "size budget: over by $((gzipped - budget)) bytes gzipped" >&2
  exit 1
fi
