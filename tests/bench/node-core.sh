#!/usr/bin/env bash
# The core's figures in Node, through the package in pkg/ (build it first:
# source .ci/lib.sh; build_package): the test-data endpoint at count=10000,
# every read and export with the log full at 10,000 and at 100,000
# records (tests/bench/reads.mjs, run last), and, first, the
# module's linear memory after 1,000,000 requests of the spec's typical
# flow at default settings. Prints JSON lines. Usage: bash tests/bench/node-core.sh [requests]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
REQUESTS=${1:-1000000} node --input-type=module - <<'JS'
import init, { Service } from "./pkg/node.js";

const wasm = await init();

const best = (times, run) => {
  let fastest = Infinity;
  for (let i = 0; i < times; i++) {
    const start = performance.now();
    run();
    fastest = Math.min(fastest, performance.now() - start);
  }
  return +fastest.toFixed(1);
};

// First, while the module is fresh: a memory only grows, so the other
// measurements would leave their mark on it.
{
  // The spec's typical flow: create, read, pay (retrying declines), mark
  // paid, a refused delete, read the payment, refund.
  const total = Number(process.env.REQUESTS);
  const s = new Service({ seed: 1, virtualTime: 0 });
  let requests = 0;
  let orders = 0;
  for (let n = 0; requests < total; n++, orders++) {
    const order = s.handle("POST", "/api/order/create", `{"userId":"u-${n % 50}","price":${(n % 500) + 1}.5,"description":"coffee"}`).data;
    s.handle("GET", `/api/order/${order.orderId}`);
    let paid;
    do {
      paid = s.handle("POST", "/api/payment/pay", `{"orderId":"${order.orderId}","amount":1.5,"paymentMethod":"CARD"}`);
      requests += 1;
    } while (paid.code !== 0);
    s.handle("POST", `/api/order/${order.orderId}/pay`);
    s.handle("POST", `/api/order/delete/${order.orderId}`);
    s.handle("GET", `/api/payment/${paid.data.paymentId}`);
    s.handle("POST", `/api/payment/refund/${paid.data.paymentId}`);
    requests += 6;
  }
  const mib = +(wasm.memory.buffer.byteLength / 2 ** 20).toFixed(1);
  console.log(JSON.stringify({ what: "typical flow", requests, orders, linearMemoryMiB: mib }));
}

{
  const s = new Service({ seed: 1, virtualTime: 0 });
  const ms = best(3, () => s.handle("GET", "/api/test/order/batch?count=10000"));
  console.log(JSON.stringify({ what: "test data count=10000", ms }));
  s.free();
}
JS
# The reads and exports, one-shot and in pieces: the same package.
node tests/bench/reads.mjs
