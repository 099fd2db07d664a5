// Two builds of the package side by side in one process, alternated, so
// that both see the same machine load: the spec's typical flow (requests
// per second), Service.restore() and snapshot() of a full log of 100,000
// records, and the linear memory after a million requests of the typical
// flow (each build's own module, fresh). For a change that touches every
// path at once, such as the allocator. Prints JSON lines, best of the
// rounds, and the ratios B / A. Usage:
//   node tests/bench/builds-compare.mjs <folder with pkg/ A> <folder with pkg/ B> [rounds] [requests]
// where each folder holds a built pkg/ (source .ci/lib.sh; build_package).
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [a, b, rounds = "5", requests = "1000000"] = process.argv.slice(2);
if (!a || !b) {
  console.error("usage: node tests/bench/builds-compare.mjs <folder with pkg/ A> <folder with pkg/ B> [rounds] [requests]");
  process.exit(2);
}

const load = async (dir) => {
  const m = await import(pathToFileURL(resolve(dir, "pkg/node.js")).href);
  const wasm = await m.default();
  return { Service: m.Service, memory: wasm.memory };
};
const builds = { A: await load(a), B: await load(b) };

/** The typical flow of one client: create, read, pay until accepted, mark
 * paid, a delete, read the payment, refund. Returns its requests. */
function client(s, n) {
  const order = s.handle("POST", "/api/order/create", `{"userId":"u-${n % 50}","price":${(n % 500) + 1}.5,"description":"coffee"}`);
  if (order.code !== 0) throw new Error(JSON.stringify(order).slice(0, 200));
  const id = order.data.orderId;
  s.handle("GET", `/api/order/${id}`);
  let paid;
  let requests = 2;
  do {
    paid = s.handle("POST", "/api/payment/pay", `{"orderId":"${id}","amount":1.5,"paymentMethod":"CARD"}`);
    requests += 1;
  } while (paid.code !== 0);
  s.handle("POST", `/api/order/${id}/pay`);
  s.handle("POST", `/api/order/delete/${id}`);
  s.handle("GET", `/api/payment/${paid.data.paymentId}`);
  s.handle("POST", `/api/payment/refund/${paid.data.paymentId}`);
  return requests + 4;
}

// The memory first, while each module is fresh (a memory only grows).
const memory = {};
for (const [name, { Service, memory: mem }] of Object.entries(builds)) {
  const s = new Service({ seed: 1, virtualTime: 0 });
  let done = 0;
  for (let n = 0; done < Number(requests); n++) done += client(s, n);
  memory[name] = +(mem.buffer.byteLength / 2 ** 20).toFixed(1);
  s.free();
}

// A full log of 100,000 records, the same text for both builds.
const source = new builds.A.Service({ seed: 1, virtualTime: 0, logCapacity: 100000 });
while (source.droppedLogs === 0) source.handle("GET", "/api/test/order/batch?count=1000");
const snapshot = source.snapshot();
source.free();

const best = {};
const keep = (name, what, value) => {
  best[what] ??= {};
  best[what][name] = Math.min(best[what][name] ?? Infinity, value);
};
for (let round = 0; round < Number(rounds); round++) {
  for (const [name, { Service }] of Object.entries(builds)) {
    const s = new Service({ seed: 1, virtualTime: 0 });
    let t = performance.now();
    let done = 0;
    for (let n = 0; n < 5000; n++) done += client(s, n);
    keep(name, "typical flow, ms per 1,000 requests", ((performance.now() - t) * 1000) / done);
    s.free();
    t = performance.now();
    const restored = Service.restore(snapshot);
    keep(name, "Service.restore(), 100,000 records, ms", performance.now() - t);
    t = performance.now();
    const again = restored.snapshot();
    keep(name, "snapshot(), 100,000 records, ms", performance.now() - t);
    if (again !== snapshot) throw new Error(`${name}: the restored service writes another snapshot`);
    restored.free();
  }
}
console.log(JSON.stringify({ what: "linear memory after the requests, MiB", requests: Number(requests), A: memory.A, B: memory.B, ratio: +(memory.B / memory.A).toFixed(2) }));
for (const [what, { A, B }] of Object.entries(best)) {
  console.log(JSON.stringify({ what, A: +A.toFixed(2), B: +B.toFixed(2), ratio: +(B / A).toFixed(2) }));
}
console.log(JSON.stringify({ A: a, B: b, rounds: Number(rounds) }));
