#!/usr/bin/env bash
# Lints the package's two OpenAPI documents as they ship, the gateway's
# (pkg/openapi.json) and the admin API's (pkg/openapi-admin.json), with
# Redocly CLI's `recommended` ruleset (redocly.yaml; the one problem the
# spec itself fixes is in .redocly.lint-ignore.yaml, which says why) and
# Spectral's `spectral:oas` (.spectral.yaml). Any error or warning fails.
# Needs the built package (build_package) and tests/server/node_modules.
# Usage: bash tests/server/lint-openapi.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
docs=(../../pkg/openapi.json ../../pkg/openapi-admin.json)
for doc in "${docs[@]}"; do
  [ -s "$doc" ] || { echo "lint-openapi: $doc is missing: build the package first" >&2; exit 1; }
done
out=$(mktemp)
err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT

# Redocly fails on errors only: its JSON totals tell the warnings too.
REDOCLY_TELEMETRY=off node_modules/.bin/redocly lint "${docs[@]}" --config redocly.yaml --format json >"$out" 2>"$err" || true
node -e '
const { readFileSync } = require("fs");
let report;
try {
  report = JSON.parse(readFileSync(process.argv[1], "utf8"));
} catch {
  console.error("redocly gave no report:\n" + readFileSync(process.argv[2], "utf8"));
  process.exit(1);
}
for (const p of report.problems) {
  if (p.ignored) continue;
  const at = p.location[0] ?? {};
  console.log(`${p.severity} ${p.ruleId}: ${p.message} (${at.source?.ref ?? ""} ${at.pointer ?? ""})`);
}
const { errors, warnings, ignored } = report.totals;
console.log(`redocly ${report.version} recommended: ${errors} errors, ${warnings} warnings, ${ignored} ignored (.redocly.lint-ignore.yaml)`);
process.exit(errors + warnings > 0 ? 1 : 0);
' "$out" "$err"

# Spectral: --fail-severity warn fails on warnings as on errors.
node_modules/.bin/spectral lint "${docs[@]}" --ruleset .spectral.yaml --fail-severity warn --format stylish
echo "spectral spectral:oas: 0 errors, 0 warnings"
