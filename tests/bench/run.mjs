// Speed, size and memory, printed, in one run so ratios are fair on a
// shared, noisy machine: the same workload natively (cargo bench) and in
// WebAssembly under Node. Run after building the package:
//   node tests/bench/run.mjs [clients]
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";

import init, { Service } from "../../pkg/node.js";

const root = new URL("../..", import.meta.url).pathname;
const clients = Number(process.argv[2] ?? 20000);

/** The workload of tests/bench/throughput.rs, request for request. */
function client(service, n) {
  const created = service.handle("POST", "/api/order/create",
    `{"userId":"bench-${n % 50}","price":${(n % 500) + 1}.5,"description":"benchmark order"}`);
  if (created.code !== 0) return 1;
  const id = created.data.orderId;
  service.handle("GET", `/api/order/${id}`);
  const pay = `{"orderId":"${id}","amount":1.5,"paymentMethod":"CARD"}`;
  let requests = 2;
  for (;;) {
    requests += 1;
    if (service.handle("POST", "/api/payment/pay", pay).code === 0) break;
  }
  service.handle("POST", `/api/order/${id}/pay`);
  return requests + 1;
}

function wasmRun() {
  let best = Infinity;
  let requests = 0;
  for (let round = 0; round < 3; round++) {
    const service = new Service({ seed: 1, virtualTime: 0 });
    const start = performance.now();
    requests = 0;
    for (let n = 0; n < clients; n++) requests += client(service, n);
    best = Math.min(best, (performance.now() - start) / 1000);
    service.free();
  }
  return { runtime: "wasm (Node)", clients, requests, seconds: +best.toFixed(4), requestsPerSecond: Math.round(requests / best) };
}

const exports = await init();
const native = JSON.parse(
  execFileSync("cargo", ["bench", "--quiet", "--bench", "throughput", "--", String(clients)], { cwd: root, stdio: ["ignore", "pipe", "ignore"] })
    .toString().trim().split("\n").pop(),
);
const wasm = wasmRun();
const bytes = readFileSync(new URL("../../pkg/orderpay_bg.wasm", import.meta.url));

// Memory: the wasm linear memory after a run, and what a snapshot of the
// state weighs, per order kept.
const service = new Service({ seed: 2, virtualTime: 0 });
for (let n = 0; n < clients; n++) client(service, n);
const snapshot = service.snapshot();

console.log(JSON.stringify(native));
console.log(JSON.stringify(wasm));
console.log(`wasm / native speed: ${(wasm.requestsPerSecond / native.requestsPerSecond).toFixed(2)}`);
console.log(`orderpay_bg.wasm: ${bytes.length} bytes raw, ${gzipSync(bytes, { level: 9 }).length} bytes gzipped`);
console.log(`wasm memory after ${clients} clients (${clients} orders kept, log at 10000 records): ${(exports.memory.buffer.byteLength / 2 ** 20).toFixed(1)} MiB`);
console.log(`snapshot of that state: ${(snapshot.length / 2 ** 20).toFixed(1)} MiB, ${Math.round(snapshot.length / clients)} bytes per order`);
