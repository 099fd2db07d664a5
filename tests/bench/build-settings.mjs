// The module's size against its speed for each build setting worth
// trying: rustc's opt-level, LLVM's inline threshold, per-crate
// opt-levels, and wasm-opt's passes. For each setting it builds the
// package's module (its size, gzipped as .ci/test counts it) and the same
// code with the `boundary-bench` feature (`benchTypicalFlow`: the core's
// typical flow inside the module, as tests/bench/core-wasm.mjs runs it),
// then measures, in one process so every row sees the same load:
// - core: requests/s of the core inside the module, best of the rounds,
//   over the native core's (`cargo bench --bench throughput`, best of a
//   run before and one after);
// - handle: Service.handle against the hand-written JS mock in Node
//   (tests/bench/race.mjs, as tests/bench/handle.mjs runs it, text bodies),
//   the row's module loaded into a copy of pkg/'s JS; two passes over the
//   rows, each row's best over the mock's best of the whole run.
// Each rustc setting has its own target dir under target/build-settings/,
// so a second run only relinks what changed. Needs pkg/ built first
// (source .ci/lib.sh; build_package) for its JS.
// Usage: node tests/bench/build-settings.mjs ["row name prefix;..."] [clients] [rounds]
import { wasmOptFlags } from "../../.ci/cargo-manifest.mjs";
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

import { createMock } from "./mock.mjs";
import { race } from "./race.mjs";

const root = new URL("../..", import.meta.url).pathname;
const target = process.env.CARGO_TARGET_DIR ?? join(root, "target");
const work = join(target, "build-settings");
const [only, clientsArg, roundsArg] = process.argv.slice(2);
const clients = Number(clientsArg ?? 20000);
const rounds = Number(roundsArg ?? 3);

// The package's wasm-opt flags (Cargo.toml), and those that are not its
// optimisation level, which a row may replace.
const packageFlags = wasmOptFlags();
const level = /^-O[0-4sz]?$|^--converge$|inline/;
const rest = packageFlags.filter((f) => !level.test(f));
const packageLevel = packageFlags.filter((f) => level.test(f));
const sized = ["-Oz", "--converge"];

/** rustc settings: cargo --config overrides and RUSTFLAGS. */
const rustc = {
  z: { config: [] },
  s: { config: ["profile.release.opt-level='s'"] },
  o2: { config: ["profile.release.opt-level=2"] },
  o3: { config: ["profile.release.opt-level=3"] },
  "z-inline50": { config: [], rustflags: "-C llvm-args=-inline-threshold=50" },
  "z-inline100": { config: [], rustflags: "-C llvm-args=-inline-threshold=100" },
  "z-inline225": { config: [], rustflags: "-C llvm-args=-inline-threshold=225" },
  "s-inline100": { config: ["profile.release.opt-level='s'"], rustflags: "-C llvm-args=-inline-threshold=100" },
  "s-inline225": { config: ["profile.release.opt-level='s'"], rustflags: "-C llvm-args=-inline-threshold=225" },
  "z-deps3": {
    config: ["profile.release.package.hashbrown.opt-level=3", "profile.release.package.talc.opt-level=3"],
  },
};

/** The rows: a rustc setting and wasm-opt's optimisation flags. */
const rows = [
  { name: "opt-level z, wasm-opt -Oz", rustc: "z", opt: sized },
  { name: `the package: opt-level z, wasm-opt ${packageLevel.join(" ")}`, rustc: "z", opt: packageLevel },
  { name: "opt-level s", rustc: "s", opt: sized },
  { name: "opt-level 2", rustc: "o2", opt: sized },
  { name: "opt-level 3", rustc: "o3", opt: sized },
  { name: "opt-level 3, wasm-opt -O3", rustc: "o3", opt: ["-O3"] },
  { name: "z, inline-threshold 50", rustc: "z-inline50", opt: sized },
  { name: "z, inline-threshold 100", rustc: "z-inline100", opt: sized },
  { name: "z, inline-threshold 225", rustc: "z-inline225", opt: sized },
  { name: "s, inline-threshold 100", rustc: "s-inline100", opt: sized },
  { name: "s, inline-threshold 225", rustc: "s-inline225", opt: sized },
  { name: "z, hashbrown and talc at 3", rustc: "z-deps3", opt: sized },
  { name: "z, wasm-opt -Os", rustc: "z", opt: ["-Os", "--converge"] },
  { name: "z, wasm-opt -O2", rustc: "z", opt: ["-O2"] },
  { name: "z, wasm-opt -O3", rustc: "z", opt: ["-O3"] },
  { name: "z, wasm-opt -O4", rustc: "z", opt: ["-O4"] },
  { name: "z, wasm-opt -Oz --inlining-optimizing", rustc: "z", opt: [...sized, "--inlining-optimizing"] },
  { name: "z, wasm-opt -Oz, always-inline 10", rustc: "z", opt: [...sized, "--always-inline-max-function-size=10"] },
  { name: "z, wasm-opt -Oz, always-inline 15", rustc: "z", opt: [...sized, "--always-inline-max-function-size=15"] },
  { name: "z, wasm-opt -Oz, always-inline 20", rustc: "z", opt: [...sized, "--always-inline-max-function-size=20"] },
  { name: "z, wasm-opt -Oz --inlining-optimizing, flexible-inline 40", rustc: "z", opt: [...sized, "--flexible-inline-max-function-size=40", "--inlining-optimizing"] },
  { name: "z, wasm-opt -O3 then -Oz", rustc: "z", opt: ["-O3", ...sized] },
  { name: "s, wasm-opt -O3", rustc: "s", opt: ["-O3"] },
  { name: "z, inline-threshold 100, wasm-opt -O3", rustc: "z-inline100", opt: ["-O3"] },
].filter((row) => !only || only.split(";").some((n) => row.name.startsWith(n) || row.rustc === n));

const run = (cmd, args, env = {}) =>
  execFileSync(cmd, args, { cwd: root, stdio: ["ignore", "pipe", "inherit"], env: { ...process.env, ...env } }).toString();

/** The module of a rustc setting, with or without the bench feature: its path (copied out of the target dir). */
function build(key, bench) {
  const { config, rustflags } = rustc[key];
  // The package's own setting builds in the package's target dir.
  const dir = key === "z" ? target : join(work, key);
  const args = ["build", "--quiet", "--release", "--lib", "--target", "wasm32-unknown-unknown"];
  if (bench) args.push("--features", "boundary-bench");
  for (const c of config) args.push("--config", c);
  const env = { CARGO_TARGET_DIR: dir };
  if (rustflags) env.CARGO_ENCODED_RUSTFLAGS = rustflags.split(" ").join("\x1f");
  const started = performance.now();
  run("cargo", args, env);
  // Named as wasm-bindgen names its output after its input.
  mkdirSync(join(work, key, bench ? "bench" : "plain"), { recursive: true });
  const out = join(work, key, bench ? "bench" : "plain", "orderpay.wasm");
  cpSync(join(dir, "wasm32-unknown-unknown/release/orderpay.wasm"), out);
  console.error(`built ${key}${bench ? " (bench)" : ""} in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  return out;
}

/** wasm-bindgen then wasm-opt with the row's flags, into its own folder; the .wasm's path.
 * Done again only when the input or the flags changed (wasm-opt --converge takes most of a minute). */
function finish(input, folder, opt) {
  const wasm = join(folder, "orderpay_bg.wasm");
  const stamp = JSON.stringify({ input: readFileSync(input).length, mtime: statSync(input).mtimeMs, flags: [...opt, ...rest] });
  const stampFile = join(folder, "stamp.json");
  if (existsSync(wasm) && existsSync(stampFile) && readFileSync(stampFile, "utf8") === stamp) return wasm;
  rmSync(folder, { recursive: true, force: true });
  run("wasm-bindgen", ["--target", "web", "--out-dir", folder, input]);
  run(join(root, "tests/node_modules/.bin/wasm-opt"), [...opt, ...rest, wasm, "-o", wasm]);
  writeFileSync(stampFile, stamp);
  return wasm;
}

if (!existsSync(join(root, "pkg/orderpay.js"))) throw new Error("build pkg/ first: source .ci/lib.sh; build_package");
mkdirSync(work, { recursive: true });
const built = {};
for (const key of new Set(rows.map((r) => r.rustc))) built[key] = { plain: build(key, false), bench: build(key, true) };

const native = () => JSON.parse(run("cargo", ["bench", "--quiet", "--bench", "throughput", "--", String(clients)]).trim().split("\n").pop());
let nativeBest = native();

for (const row of rows) {
  const folder = join(work, "rows", row.name.replace(/[^a-z0-9]+/gi, "-"));
  const plain = finish(built[row.rustc].plain, join(folder, "plain"), row.opt);
  row.bytes = readFileSync(plain).length;
  // As .ci/test and tests/bench/size.sh count it (zlib's own level 9 differs by some hundred bytes).
  row.gz = execFileSync("gzip", ["-9", "-c", plain]).length;
  const bench = finish(built[row.rustc].bench, join(folder, "bench"), row.opt);
  const glue = await import(pathToFileURL(join(folder, "bench", "orderpay.js")).href);
  glue.initSync({ module: readFileSync(bench) });
  row.bench = glue.benchTypicalFlow;
  // The package's JS with this row's module.
  const pkg = join(folder, "pkg");
  cpSync(join(root, "pkg"), pkg, { recursive: true, filter: (p) => !/\/(playground|cjs)$/.test(p) });
  cpSync(plain, join(pkg, "orderpay_bg.wasm"));
  const api = await import(pathToFileURL(join(pkg, "orderpay.js")).href);
  api.initSync({ module: readFileSync(plain) });
  row.Service = api.Service;
  console.error(`ready: ${row.name}: ${row.bytes} bytes, ${row.gz} gzipped`);
}

// The core in every row, in rounds that take turns.
let requests = 0;
for (let round = 0; round < rounds; round++) {
  for (const row of rows) {
    const start = performance.now();
    requests = row.bench(clients);
    const rate = requests / ((performance.now() - start) / 1000);
    row.core = Math.max(row.core ?? 0, rate);
  }
}
const after = native();
if (after.requestsPerSecond > nativeBest.requestsPerSecond) nativeBest = after;
if (requests !== nativeBest.requests) throw new Error(`the module made ${requests} requests, the native core ${nativeBest.requests}`);

// Service.handle against the mock, each row in turn, twice; each row's
// best over the best the mock made in the whole run, so that the rows
// compare with each other even when the load moves between them.
let mockBest = 0;
for (let pass = 0; pass < 2; pass++) {
  for (const row of rows) {
    const r = race({ makeService: () => new row.Service({ seed: 1 }), makeMock: () => createMock(), clients, objects: false });
    row.handleRps = Math.max(row.handleRps ?? 0, r.service);
    mockBest = Math.max(mockBest, r.mock);
  }
}
for (const row of rows) row.handle = row.handleRps / mockBest;

// Sizes against the module built with -Oz alone (the package before always-inline 5).
const base = rows.find((r) => r.rustc === "z" && r.opt === sized) ?? rows[0];
console.log(JSON.stringify({ native: nativeBest, mockRequestsPerSecond: mockBest, clients, rounds }));
console.log("| build | bytes | gzipped | gz vs z, -Oz | core wasm/native | core requests/s | handle/mock (Node) |");
console.log("|---|---|---|---|---|---|---|");
for (const row of rows) {
  const gzDelta = row.gz - base.gz;
  console.log(
    `| ${row.name} | ${row.bytes.toLocaleString("en")} | ${row.gz.toLocaleString("en")} | ${gzDelta >= 0 ? "+" : ""}${gzDelta.toLocaleString("en")} | ${(row.core / nativeBest.requestsPerSecond).toFixed(2)} | ${Math.round(row.core).toLocaleString("en")} | ${row.handle.toFixed(2)}x |`,
  );
}
writeFileSync(join(work, "last.json"), JSON.stringify(rows.map(({ bench, Service, ...r }) => r), null, 1));
