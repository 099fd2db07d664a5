#!/usr/bin/env bash
# Lints the package's two OpenAPI documents as they ship, the gateway's
# (pkg/openapi.json) and the admin API's (pkg/openapi-admin.json), with
# Redocly CLI's `recommended` ruleset (redocly.yaml; the two problems the
# paths themselves fix, the spec's and the challenge page's, are in
# .redocly.lint-ignore.yaml, which says why) and
# Spectral's `spectral:oas` (.spectral.yaml). Any error or warning fails.
# Needs the built package (build_package) and tests/server/node_modules.
# Usage: bash tests/server/lint-openapi.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
docs=(../../pkg/openapi.json ../../pkg/openapi-admin.json)
for doc in "${docs[@]}"; do
  [ -s "$doc" ] || { echo "lint-openapi: $doc is missing: build the package first" >&2; exit 1; }
done
failed=0
out=$(mktemp)
err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT

# Redocly fails on errors only: its JSON totals tell the warnings too. One
# run a document, since it writes one report a document.
for doc in "${docs[@]}"; do
  REDOCLY_TELEMETRY=off node_modules/.bin/redocly lint "$doc" --config redocly.yaml --format json >"$out" 2>"$err" || true
  node -e '
const { readFileSync } = require("fs");
const [report, stderr, doc] = process.argv.slice(1);
let r;
try {
  r = JSON.parse(readFileSync(report, "utf8"));
} catch {
  console.error(`redocly gave no report for ${doc}:\n` + readFileSync(stderr, "utf8"));
  process.exit(1);
}
for (const p of r.problems) {
  if (p.ignored) continue;
  console.log(`${p.severity} ${p.ruleId}: ${p.message} (${p.location[0]?.pointer ?? ""})`);
}
const { errors, warnings, ignored } = r.totals;
console.log(`${doc}: redocly ${r.version} recommended: ${errors} errors, ${warnings} warnings, ${ignored} ignored (.redocly.lint-ignore.yaml)`);
process.exit(errors + warnings > 0 ? 1 : 0);
' "$out" "$err" "$doc" || failed=1
done

# Spectral: --fail-severity warn fails on warnings as on errors.
if node_modules/.bin/spectral lint "${docs[@]}" --ruleset .spectral.yaml --fail-severity warn --format stylish; then
  echo "spectral spectral:oas: 0 errors, 0 warnings"
else
  failed=1
fi
exit "$failed"
