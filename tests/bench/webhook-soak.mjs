// A soak of webhook delivery in `orderpay serve`, for a set time: orders
// created and paid (a fifth declined) by a few clients, every event
// delivered to a receiver on 127.0.0.1 that answers 500 to 30% of
// deliveries and is down twice (closed, then listening again on the same
// port), at a third and two thirds of the run. The service runs on a
// virtual clock that a ticker moves a minute every TICK_MS, so that the
// retry schedule (1 min, 5 min, 30 min, ...) plays out within the run;
// at the end the receiver answers every delivery and the clock is moved
// three days on. It reports, with exit code 1 when one fails:
//   - every event the clients caused (an order created, a payment
//     succeeded or failed) delivered at least once with a 2xx answer;
//   - none delivered with a 2xx more than once (no scenario asks for
//     duplicates here);
//   - every delivery's signature verified (node:crypto's HMAC);
//   - memory: the server's least RSS over the last third of the run
//     within 10% of that over the middle third (judged when the run
//     lasts 90 s or more; the events and deliveries are bounded at 10,000).
//
// Run: node tests/bench/webhook-soak.mjs [--seconds 600]
// Needs the built package (pkg/).
import { spawn } from "node:child_process";
import { createHmac } from "node:crypto";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { loadavg } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";

const root = new URL("../..", import.meta.url).pathname;
const { values } = parseArgs({ options: { seconds: { type: "string", default: "600" } } });
const SECONDS = Number(values.seconds);
const SECRET = "whsec_soak_0123456789abcdef";
const FAIL_SHARE = 0.3;
const CLIENTS = 4;
/** Each client's pause between two flows: some 25 flows a second in all. */
const PAUSE_MS = 150;
/** The virtual clock moves a minute this often. */
const TICK_MS = 500;
const DOWN_MS = 3000;

const seen = { deliveries: 0, answered2xx: new Map(), badSignatures: 0, failedOnPurpose: 0, refusedWhileDown: 0 };
const expected = new Set();

/** What identifies an event for the check: its type and its order or payment. */
function keyOf(type, object) {
  return `${type} ${object.paymentId ?? object.orderId}`;
}

function verified(raw, header) {
  const items = Object.fromEntries(header.split(",").map((i) => i.split("=")));
  const mac = createHmac("sha256", SECRET).update(`${items.t}.`).update(raw).digest("hex");
  return header.split(",").some((i) => i === `v1=${mac}`);
}

let failing = true;
const receiver = createServer((req, res) => {
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    const raw = Buffer.concat(chunks);
    seen.deliveries += 1;
    if (!verified(raw, req.headers["orderpay-signature"] ?? "")) seen.badSignatures += 1;
    if (failing && Math.random() < FAIL_SHARE) {
      seen.failedOnPurpose += 1;
      return res.writeHead(500).end();
    }
    const event = JSON.parse(raw.toString("utf8"));
    const key = keyOf(event.type, event.data.object);
    seen.answered2xx.set(key, (seen.answered2xx.get(key) ?? 0) + 1);
    res.writeHead(200).end();
  });
});
await once(receiver.listen(0, "127.0.0.1"), "listening");
const receiverPort = receiver.address().port;

/** The receiver down for DOWN_MS (connections refused), then up again on the same port. */
async function restartReceiver() {
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
  await new Promise((resolve) => setTimeout(resolve, DOWN_MS));
  await once(receiver.listen(receiverPort, "127.0.0.1"), "listening");
}

const proc = spawn(process.execPath, [join(root, "pkg", "server", "cli.js"), "serve", "--port", "0", "--seed", "5", "--failure-rate", "0.2", "--log-capacity", "2000",
  "--webhook", `http://127.0.0.1:${receiverPort}/hooks`, "--webhook-secret", SECRET, "--webhook-header", "Orderpay-Signature"], { stdio: ["ignore", "pipe", "inherit"] });
let out = "";
proc.stdout.on("data", (d) => (out += d));
while (!/serving on (\S+)\/api/.test(out)) {
  if (proc.exitCode !== null) throw new Error(`orderpay serve exited: ${out}`);
  await once(proc.stdout, "data");
}
const base = /serving on (\S+)\/api/.exec(out)[1];
const post = async (path, body) => (await (await fetch(`${base}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })).json()).data;
await post("/__orderpay/reset", { virtualTime: Date.UTC(2026, 0, 1) });

const rss = [];
const started = performance.now();
const elapsed = () => (performance.now() - started) / 1000;
const running = () => elapsed() < SECONDS;

async function client(n) {
  while (running()) {
    const order = await post("/api/order/create", { userId: `soak-${n}`, price: 7 });
    expected.add(keyOf("order.created", order));
    const payment = await post("/api/payment/pay", { orderId: order.orderId, amount: 7, paymentMethod: "CARD" });
    if (payment?.paymentId) expected.add(keyOf(payment.status === "SUCCESS" ? "payment.succeeded" : "payment.failed", payment));
    await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
  }
}

async function ticker() {
  while (running()) {
    await post("/__orderpay/advance", { ms: 60_000 });
    const status = readFileSync(`/proc/${proc.pid}/status`, "utf8");
    rss.push([elapsed(), Number(/VmRSS:\s+(\d+)/.exec(status)[1]) / 1024]);
    await new Promise((resolve) => setTimeout(resolve, TICK_MS));
  }
}

async function restarts() {
  for (const at of [SECONDS / 3, (2 * SECONDS) / 3]) {
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, at - elapsed()) * 1000));
    await restartReceiver();
  }
}

await Promise.all([...Array.from({ length: CLIENTS }, (_, i) => client(i)), ticker(), restarts()]);
// The end: every delivery answered, and the clock past the last retry.
failing = false;
await post("/__orderpay/advance", { ms: 3 * 24 * 3600 * 1000 });
proc.kill("SIGTERM");
receiver.close();

const missing = [...expected].filter((key) => !seen.answered2xx.has(key));
const twice = [...seen.answered2xx].filter(([, n]) => n > 1);
const least = (from, to) => Math.min(...rss.filter(([t]) => t >= from && t < to).map(([, mb]) => mb));
const middle = least(SECONDS / 3, (2 * SECONDS) / 3);
const last = least((2 * SECONDS) / 3, SECONDS + 1);
const judged = SECONDS >= 90;
const flat = !judged || last <= middle * 1.1;
console.log(`webhook soak: ${Math.round(elapsed())} s, ${expected.size} events caused, ${seen.deliveries} deliveries received (${seen.failedOnPurpose} answered 500 on purpose), receiver restarted twice`);
console.log(`  delivered at least once: ${expected.size - missing.length}/${expected.size}${missing.length ? ` (missing e.g. ${missing.slice(0, 3).join(", ")})` : ""}`);
console.log(`  delivered with 2xx more than once: ${twice.length}${twice.length ? ` (e.g. ${twice.slice(0, 3).map(([k, n]) => `${k} x${n}`).join(", ")})` : ""}`);
console.log(`  signatures that did not verify: ${seen.badSignatures}`);
console.log(`  server RSS, least: middle third ${middle.toFixed(1)} MB, last third ${last.toFixed(1)} MB${judged ? (flat ? " (flat)" : " (GROWING)") : " (not judged under 90 s)"}; load average ${loadavg().map((x) => x.toFixed(2)).join(" ")}`);
process.exit(missing.length || twice.length || seen.badSignatures || !flat ? 1 : 0);
