#!/usr/bin/env bash
# Lays out the file tree of the orderpay image, the one thing the
# Containerfile copies (it starts FROM scratch): Node's binary from npm,
# stripped, the shared libraries it links and their loader as ldd finds
# them here, the package as `npm pack` makes it less what the server never
# loads (cjs/, docs/, the .d.ts types), /etc/passwd and /etc/group with the
# user orderpay (10001), /etc/nsswitch.conf, /tmp and /data (the user's, for
# ORDERPAY_STATE). The same tree runs without a container runtime:
# tests/server/container.test.mjs starts its entry point directly.
#
# Usage: bash container/tree.sh DIR    (DIR is made anew; pkg/ must be built)
# NODE_BIN picks the Node binary (default: tests/nodes' Node 24).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT=$(realpath -m "${1:?usage: container/tree.sh DIR}")
NODE_BIN=${NODE_BIN:-$ROOT/tests/nodes/node_modules/node24/bin/node}
APP=opt/orderpay

if [ ! -x "$NODE_BIN" ]; then
  echo "container/tree.sh: no Node binary at $NODE_BIN (npm ci --prefix tests/nodes, or set NODE_BIN)" >&2
  exit 1
fi
if [ ! -f "$ROOT/pkg/package.json" ]; then
  echo "container/tree.sh: pkg/ is not built (bash -c 'source .ci/lib.sh; build_package')" >&2
  exit 1
fi

rm -rf "$OUT"
mkdir -p "$OUT/usr/local/bin" "$OUT/etc" "$OUT/$APP" "$OUT/data"
install -d -m 1777 "$OUT/tmp"

# Node, without its debugging symbols (126 MB, 108 MB stripped); unstripped where no strip is installed.
if command -v strip >/dev/null; then
  strip -o "$OUT/usr/local/bin/node" "$NODE_BIN"
else
  echo "container/tree.sh: no strip here: Node's binary is copied with its symbols" >&2
  cp "$NODE_BIN" "$OUT/usr/local/bin/node"
fi

# Each library at the path ldd resolves it to, the loader at the path the binary names.
while read -r path; do
  mkdir -p "$OUT$(dirname "$path")"
  cp -L "$path" "$OUT$path"
done < <(ldd "$NODE_BIN" | grep -o '/[^ ]*' | sort -u)

# The package as npm publishes it, less what `orderpay serve` never loads.
tarball=$(cd "$ROOT/pkg" && npm pack --silent --pack-destination "$OUT/tmp")
tar -xzf "$OUT/tmp/$tarball" -C "$OUT/$APP" --strip-components=1 \
  --exclude='package/cjs' --exclude='package/docs' --exclude='*.d.ts'
rm "$OUT/tmp/$tarball"

cat >"$OUT/etc/passwd" <<'PASSWD'
root:x:0:0:root:/root:/sbin/nologin
orderpay:x:10001:10001:orderpay:/data:/sbin/nologin
PASSWD
cat >"$OUT/etc/group" <<'GROUP'
root:x:0:
orderpay:x:10001:
GROUP
printf 'passwd: files\ngroup: files\nhosts: files dns\n' >"$OUT/etc/nsswitch.conf"
# /data is the user's: the Containerfile's COPY --chown says so in the image, this in the tree run as it is.
if [ "$(id -u)" = 0 ]; then chown 10001:10001 "$OUT/data"; fi
