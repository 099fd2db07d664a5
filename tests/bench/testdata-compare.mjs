// Test data at count=10000 in Node, two builds of the package side by
// side in one process, alternated, each call on a fresh service: the
// ratio of two builds measured in the same run, whatever the machine's
// load does to both. Usage:
//   node tests/bench/testdata-compare.mjs <checkout-or-pkg-parent A> <B> [rounds]
// where each folder holds a built pkg/ (source .ci/lib.sh; build_package).
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [a, b, rounds = "8"] = process.argv.slice(2);
if (!a || !b) {
  console.error("usage: node tests/bench/testdata-compare.mjs <folder with pkg/ A> <folder with pkg/ B> [rounds]");
  process.exit(2);
}
const load = async (dir) => {
  const m = await import(pathToFileURL(resolve(dir, "pkg/node.js")).href);
  await m.default();
  return m.Service;
};
const builds = { [a]: await load(a), [b]: await load(b) };
const best = {};
for (let round = 0; round < Number(rounds); round++) {
  for (const [name, Service] of Object.entries(builds)) {
    const s = new Service({ seed: 1, virtualTime: 0 });
    const t = performance.now();
    const r = s.handle("GET", "/api/test/order/batch?count=10000");
    const ms = performance.now() - t;
    if (r.code !== 0) throw new Error(`${name}: ${JSON.stringify(r).slice(0, 200)}`);
    best[name] = Math.min(best[name] ?? Infinity, ms);
    s.free();
  }
}
for (const [name, ms] of Object.entries(best)) console.log(JSON.stringify({ build: name, bestMs: +ms.toFixed(1) }));
console.log(`${b} takes ${(best[b] / best[a]).toFixed(2)}x the time of ${a}`);
