#!/usr/bin/env bash
# schemathesis against `orderpay serve` and the OpenAPI documents it serves,
# the gateway's and the admin API's: no server error, no status, header,
# content type or body off the document.
# Bounded: a few examples per operation, on loopback.
# Usage: bash tests/server/schemathesis.sh [max examples, default 10]
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# schemathesis keeps a cache in its working directory: a scratch one.
work=$(mktemp -d)
log="$work/server.log"
node "$ROOT/pkg/server/cli.js" serve --port 0 >"$log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null; rm -rf "$work"' EXIT
cd "$work"
for _ in $(seq 50); do
  grep -q "serving on" "$log" && break
  sleep 0.1
done
origin=$(sed -n 's/.*serving on \(http:\/\/[^ ]*\)\/api .*/\1/p' "$log")
[ -n "$origin" ] || { cat "$log" >&2; exit 1; }
checks=not_a_server_error,status_code_conformance,content_type_conformance,response_headers_conformance,response_schema_conformance
"$ROOT/tests/server/.venv/bin/schemathesis" run "$origin/__orderpay/openapi.json" \
  --checks "$checks" --max-examples "${1:-10}" --workers 1 --max-response-time 5
# The admin API's document too, after the gateway's (its resets and restores
# would swap the service under it). Not the event streams (the default
# session's and each session's), which never end.
"$ROOT/tests/server/.venv/bin/schemathesis" run "$origin/__orderpay/openapi-admin.json" \
  --checks "$checks" --exclude-path /__orderpay/events --exclude-path '/__orderpay/sessions/{session}/events' --max-examples "${1:-10}" --workers 1 --max-response-time 5
