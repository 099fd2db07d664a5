// Latency of webhook delivery in `orderpay serve` on the wall clock: from a
// payment's state change to its delivery reaching a receiver on 127.0.0.1.
// Beside the measured receiver, a second endpoint holds every delivery for
// SLOW_MS before answering: a slow receiver must not delay the other's
// deliveries (the sender has no head-of-line wait). Payments are made one
// at a time, each waiting for its payment.succeeded delivery, and two
// figures are printed, p50 and p99 of each:
//   - from the pay request sent to the delivery received (an upper bound:
//     it holds the request's own way in);
//   - from the event's createdAt (the service's clock at the change, ms,
//     the wall clock here) to the delivery received.
// Asserts nothing.
//
// Run: node tests/bench/webhook-latency.mjs [--payments 500] [--slow-ms 2000]
// Needs the built package (pkg/).
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:http";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";

const root = new URL("../..", import.meta.url).pathname;
const { values } = parseArgs({ options: { payments: { type: "string", default: "500" }, "slow-ms": { type: "string", default: "2000" } } });
const PAYMENTS = Number(values.payments);
const SLOW_MS = Number(values["slow-ms"]);

/** The receiver measured: each payment.succeeded's arrival, by payment id, and its waiter resolved. */
async function fastReceiver() {
  const waiting = new Map();
  const arrived = new Map();
  const server = createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const at = performance.now();
      const wall = Date.now();
      res.writeHead(204).end();
      const event = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      if (event.type !== "payment.succeeded") return;
      const id = event.data.object.paymentId;
      arrived.set(id, { at, wall, createdAt: event.createdAt });
      waiting.get(id)?.();
    });
  });
  server.keepAliveTimeout = 60_000;
  await once(server.listen(0, "127.0.0.1"), "listening");
  /** The arrival of payment `id`'s delivery, once it came. */
  const arrival = async (id) => {
    if (!arrived.has(id)) await new Promise((resolve) => waiting.set(id, resolve));
    waiting.delete(id);
    return arrived.get(id);
  };
  return { server, arrival, url: `http://127.0.0.1:${server.address().port}/fast` };
}

/** The slow receiver: answers each delivery SLOW_MS after it arrived. */
async function slowReceiver() {
  let held = 0;
  const server = createServer((req, res) => {
    req.resume();
    held += 1;
    setTimeout(() => res.writeHead(200).end(), SLOW_MS);
  });
  await once(server.listen(0, "127.0.0.1"), "listening");
  return { server, held: () => held, url: `http://127.0.0.1:${server.address().port}/slow` };
}

/** orderpay serve on a free port with both endpoints; resolves with its gateway's URL. */
async function startServer(fast, slow) {
  const args = [join(root, "pkg", "server", "cli.js"), "serve", "--port", "0", "--seed", "1", "--failure-rate", "0",
    "--webhook", fast.url, "--webhook", slow.url];
  const proc = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] });
  let out = "";
  proc.stdout.on("data", (d) => (out += d));
  while (!/serving on (\S+)\/api/.test(out)) {
    if (proc.exitCode !== null) throw new Error(`orderpay serve exited: ${out}`);
    await once(proc.stdout, "data");
  }
  return { proc, url: /serving on (\S+)\/api/.exec(out)[1] };
}

const post = async (url, body) => (await (await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })).json()).data;

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

const fast = await fastReceiver();
const slow = await slowReceiver();
const { proc, url } = await startServer(fast, slow);
const fromRequest = [];
const fromChange = [];
try {
  for (let i = 0; i < PAYMENTS; i++) {
    const order = await post(`${url}/api/order/create`, { userId: "latency", price: 5 });
    const sent = performance.now();
    const payment = await post(`${url}/api/payment/pay`, { orderId: order.orderId, amount: 5, paymentMethod: "CARD" });
    // The delivery may come before the answer: it is matched by the payment's id.
    const got = await fast.arrival(payment.paymentId);
    fromRequest.push(got.at - sent);
    fromChange.push(got.wall - got.createdAt);
  }
} finally {
  proc.kill("SIGTERM");
  fast.server.close();
  slow.server.closeAllConnections();
  slow.server.close();
}
fromRequest.sort((a, b) => a - b);
fromChange.sort((a, b) => a - b);
const ms = (x) => x.toFixed(1);
console.log(`webhook latency, orderpay serve on the wall clock, ${PAYMENTS} payments one at a time, a second endpoint holding each delivery ${SLOW_MS} ms (${slow.held()} held)`);
console.log(`  pay request sent -> delivery received: p50 ${ms(percentile(fromRequest, 50))} ms, p99 ${ms(percentile(fromRequest, 99))} ms, max ${ms(fromRequest.at(-1))} ms`);
console.log(`  event createdAt -> delivery received:  p50 ${ms(percentile(fromChange, 50))} ms, p99 ${ms(percentile(fromChange, 99))} ms, max ${ms(fromChange.at(-1))} ms`);
console.log(`  Node ${process.version}, ${cpus().length} cores, load average ${loadavg().map((x) => x.toFixed(2)).join(" ")}`);
