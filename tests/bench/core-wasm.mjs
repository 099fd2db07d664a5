// The core's speed in WebAssembly against the native core, on the same
// requests (tests/bench/typical_flow.rs) with no boundary crossed: the
// module built with the `boundary-bench` feature runs the typical flow
// inside itself (`benchTypicalFlow`), through wasm-bindgen and wasm-opt
// with the package's flags; `cargo bench --bench throughput` runs it
// natively. Both answer with the envelope as a value (no JSON text), so
// what differs is the compiler's target and its optimisation for size.
// `node tests/bench/run.mjs` measures `Service.handle` from JS instead,
// which also writes and parses the JSON text and crosses the boundary.
// Usage: node tests/bench/core-wasm.mjs [clients]
// CARGO_PROFILE_RELEASE_OPT_LEVEL=3 builds the module for speed instead.
import { wasmOptFlags } from "../../.ci/cargo-manifest.mjs";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";

const root = new URL("../..", import.meta.url).pathname;
const target = process.env.CARGO_TARGET_DIR ?? join(root, "target");
const out = join(target, "core-wasm-pkg");
const clients = Number(process.argv[2] ?? 20000);
const run = (cmd, args) => execFileSync(cmd, args, { cwd: root, stdio: ["ignore", "pipe", "inherit"] }).toString();

run("cargo", ["build", "--quiet", "--release", "--lib", "--target", "wasm32-unknown-unknown", "--features", "boundary-bench"]);
run("wasm-bindgen", ["--target", "web", "--out-dir", out, join(target, "wasm32-unknown-unknown/release/orderpay.wasm")]);
// The package's wasm-opt flags, from Cargo.toml as the build reads them.
const flags = wasmOptFlags();
// binaryen is the build's tool: the root package.json's.
const wasmOpt = join(root, "node_modules/.bin/wasm-opt");
run(wasmOpt, [...flags, join(out, "orderpay_bg.wasm"), "-o", join(out, "orderpay_bg.wasm")]);

const glue = await import(join(out, "orderpay.js"));
glue.initSync({ module: readFileSync(join(out, "orderpay_bg.wasm")) });
let best = Infinity;
let requests = 0;
for (let round = 0; round < 3; round++) {
  const start = performance.now();
  requests = glue.benchTypicalFlow(clients);
  best = Math.min(best, (performance.now() - start) / 1000);
}
const wasm = { runtime: "wasm core (Node)", clients, requests, seconds: +best.toFixed(4), requestsPerSecond: Math.round(requests / best) };
const native = JSON.parse(run("cargo", ["bench", "--quiet", "--bench", "throughput", "--", String(clients)]).trim().split("\n").pop());
console.log(JSON.stringify(native));
console.log(JSON.stringify(wasm));
if (wasm.requests !== native.requests) throw new Error(`the two runs made ${wasm.requests} and ${native.requests} requests`);
console.log(`wasm core / native core speed: ${(wasm.requestsPerSecond / native.requestsPerSecond).toFixed(2)} (opt-level ${process.env.CARGO_PROFILE_RELEASE_OPT_LEVEL ?? "of Cargo.toml's release profile"})`);
