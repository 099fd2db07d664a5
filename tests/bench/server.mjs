// Load benchmark of `orderpay serve` against the mock servers it is
// compared with, side by side in one run on loopback: Prism mocking the
// same OpenAPI document, json-server, and WireMock (when Java is here).
// Each gets the typical flow's requests (create an order, read it, pay,
// mark it paid, read the payment) from autocannon, bounded in time and
// count, and the script prints requests/s and p99 latency for each.
//
// Run: node tests/bench/server.mjs [seconds per target, default 8]
// Needs the built package (pkg/) and tests/server's tooling (.ci/lib.sh).
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";

const root = new URL("../..", import.meta.url).pathname;
const tools = join(root, "tests", "server");
const require = createRequire(join(tools, "package.json"));
const autocannon = require("autocannon");

const SECONDS = Number(process.argv[2] ?? 8);
const CONNECTIONS = 10;
const MAX_REQUESTS = 200_000;
const bin = (name) => join(tools, "node_modules", ".bin", name);

/** Starts a server and waits until `ready` answers. */
async function launch(name, command, args, ready, options = {}) {
  const proc = spawn(command, args, { stdio: ["ignore", "ignore", "pipe"], ...options });
  let err = "";
  proc.stderr.on("data", (d) => (err += d));
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (proc.exitCode !== null) throw new Error(`${name} exited: ${err}`);
    try {
      const res = await fetch(ready);
      await res.arrayBuffer();
      return proc;
    } catch {
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  proc.kill("SIGKILL");
  throw new Error(`${name} did not start in 60 s: ${err}`);
}

const json = (body) => JSON.stringify(body);

/** The flow as orderpay's (and Prism's) routes: each request uses the ids of the earlier answers. */
function gatewayFlow(base) {
  const headers = { "content-type": "application/json" };
  return [
    { method: "POST", path: `${base}/api/order/create`, headers, body: json({ userId: "bench", price: 9.9, description: "load" }),
      onResponse: (s, body, ctx) => { ctx.orderId = JSON.parse(body)?.data?.orderId ?? "ORD-00000000"; } },
    { method: "GET", setupRequest: (req, ctx) => ({ ...req, path: `${base}/api/order/${ctx.orderId}` }) },
    { method: "POST", headers, setupRequest: (req, ctx) => ({ ...req, path: `${base}/api/payment/pay`, body: json({ orderId: ctx.orderId, amount: 9.9, paymentMethod: "CARD" }) }),
      onResponse: (s, body, ctx) => { ctx.paymentId = JSON.parse(body)?.data?.paymentId ?? "PAY-00000000"; } },
    { method: "POST", setupRequest: (req, ctx) => ({ ...req, path: `${base}/api/order/${ctx.orderId}/pay` }) },
    { method: "GET", setupRequest: (req, ctx) => ({ ...req, path: `${base}/api/payment/${ctx.paymentId}` }) },
  ];
}

/** The same five steps in json-server's REST shape. */
function restFlow() {
  const headers = { "content-type": "application/json" };
  return [
    { method: "POST", path: "/orders", headers, body: json({ userId: "bench", price: 9.9, description: "load", status: "CREATED" }),
      onResponse: (s, body, ctx) => { ctx.orderId = JSON.parse(body)?.id ?? 1; } },
    { method: "GET", setupRequest: (req, ctx) => ({ ...req, path: `/orders/${ctx.orderId}` }) },
    { method: "POST", headers, setupRequest: (req, ctx) => ({ ...req, path: "/payments", body: json({ orderId: ctx.orderId, amount: 9.9, paymentMethod: "CARD", status: "SUCCESS" }) }),
      onResponse: (s, body, ctx) => { ctx.paymentId = JSON.parse(body)?.id ?? 1; } },
    { method: "PATCH", headers, setupRequest: (req, ctx) => ({ ...req, path: `/orders/${ctx.orderId}`, body: json({ status: "PAID" }) }) },
    { method: "GET", setupRequest: (req, ctx) => ({ ...req, path: `/payments/${ctx.paymentId}` }) },
  ];
}

/** WireMock stubs for the five routes, answering as the spec's envelopes. */
function wiremockStubs(dir) {
  const order = { code: 0, msg: "success", data: { orderId: "ORD-AAAAAAAA", userId: "bench", price: 9.9, status: "CREATED", description: "load", createdAt: 0 } };
  const payment = { code: 0, msg: "success", data: { paymentId: "PAY-AAAAAAAA", orderId: "ORD-AAAAAAAA", amount: 9.9, status: "SUCCESS", paymentMethod: "CARD", paidAt: 0 } };
  const stub = (method, urlPattern, body) => ({ request: { method, urlPattern }, response: { status: 200, headers: { "Content-Type": "application/json" }, jsonBody: body } });
  const mappings = [
    stub("POST", "/api/order/create", order),
    stub("GET", "/api/order/ORD-[A-Z0-9]{8}", order),
    stub("POST", "/api/payment/pay", payment),
    stub("POST", "/api/order/ORD-[A-Z0-9]{8}/pay", { code: 0, msg: "success", data: null }),
    stub("GET", "/api/payment/PAY-[A-Z0-9]{8}", payment),
  ];
  writeFileSync(join(dir, "mappings", "flow.json"), JSON.stringify({ mappings }));
}

function run(url, requests) {
  return new Promise((resolve, reject) => {
    autocannon(
      { url, connections: CONNECTIONS, duration: SECONDS, maxOverallRequests: MAX_REQUESTS, requests, timeout: 10 },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
}

async function measure(name, url, requests) {
  await run(url, requests.slice(0, 1)).catch(() => {}); // warm-up: JIT, caches
  const r = await run(url, requests);
  const ok = r["2xx"];
  return { name, rps: r.requests.average, p99: r.latency.p99, total: r.requests.total, ok, errors: r.errors + r.timeouts + r.non2xx };
}

const scratch = mkdtempSync(join(tmpdir(), "orderpay-bench-"));
const results = [];
const targets = [
  {
    name: "orderpay serve",
    start: (port) => launch("orderpay", "node", [join(root, "pkg", "server", "cli.js"), "serve", "--port", String(port), "--failure-rate", "0"], `http://127.0.0.1:${port}/__orderpay/health`),
    flow: () => gatewayFlow(""),
  },
  {
    name: "Prism (prism mock, same OpenAPI document)",
    start: (port) => launch("prism", bin("prism"), ["mock", "-h", "127.0.0.1", "-p", String(port), join(root, "pkg", "openapi.json")], `http://127.0.0.1:${port}/api/order/ORD-AAAAAAAA`),
    flow: () => gatewayFlow(""),
  },
  {
    name: "json-server (in memory)",
    start: (port) => launch("json-server", "node", ["-e", `
      const js = require("json-server");
      const app = js.create();
      app.use(js.defaults({ logger: false }));
      app.use(js.router({ orders: [], payments: [] }));
      app.listen(${port}, "127.0.0.1");`], `http://127.0.0.1:${port}/orders`, { cwd: tools }),
    flow: restFlow,
  },
];
const java = spawnSync("java", ["-version"], { encoding: "utf8" });
if (java.status === 0) {
  targets.push({
    name: "WireMock (standalone, stubs)",
    start: (port) => {
      const dir = join(scratch, "wiremock");
      spawnSync("mkdir", ["-p", join(dir, "mappings")]);
      wiremockStubs(dir);
      return launch("wiremock", bin("wiremock"), ["--port", String(port), "--bind-address", "127.0.0.1", "--root-dir", dir, "--disable-banner", "--no-request-journal"], `http://127.0.0.1:${port}/__admin/health`);
    },
    flow: () => gatewayFlow(""),
  });
}

let port = 4900 + Math.floor(Math.random() * 500);
for (const target of targets) {
  port += 1;
  let proc;
  try {
    proc = await target.start(port);
    results.push(await measure(target.name, `http://127.0.0.1:${port}`, target.flow()));
  } catch (error) {
    results.push({ name: target.name, failed: error.message.split("\n")[0] });
  } finally {
    proc?.kill("SIGKILL");
  }
}

const fmt = (n) => Math.round(n).toLocaleString("en-US");
console.log(`${new Date().toISOString().slice(0, 10)}, ${cpus().length} cores (${cpus()[0]?.model.trim()}), Node ${process.version}; ` +
  `autocannon, ${CONNECTIONS} connections, ${SECONDS} s per target (at most ${fmt(MAX_REQUESTS)} requests), the 5 requests of the flow in turn`);
console.log("| server | requests/s | p99 latency (ms) | requests | non-2xx or errors |");
console.log("|---|---:|---:|---:|---:|");
for (const r of results) {
  if (r.failed) console.log(`| ${r.name} | (did not run: ${r.failed}) | | | |`);
  else console.log(`| ${r.name} | ${fmt(r.rps)} | ${r.p99} | ${fmt(r.total)} | ${fmt(r.errors)} |`);
}
const ours = results[0];
const peers = results.slice(1).filter((r) => !r.failed);
if (!ours.failed && peers.length) {
  const best = peers.reduce((a, b) => (b.rps > a.rps ? b : a));
  console.log(`orderpay serve: ${(ours.rps / best.rps).toFixed(2)}x the requests/s of the best peer (${best.name}), p99 ${ours.p99} ms against ${best.p99} ms`);
}
