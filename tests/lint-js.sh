#!/usr/bin/env bash
# ESLint over the JS layer and the page, with the root eslint.config.js:
# @eslint/js's recommended rules and functions of at most 60 lines. ESLint
# is pinned in tests/package.json. Any problem fails. Usage: bash tests/lint-js.sh
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
targets=(src/js/ www/)
exec "$root/tests/node_modules/.bin/eslint" --max-warnings 0 "${targets[@]}"
