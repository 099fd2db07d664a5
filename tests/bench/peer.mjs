// Us against a peer, in one run: the same client code (create an order,
// pay it, read it back, over fetch) answered three ways:
//   1. orderpay's createFetch (no interception: fetch is replaced),
//   2. orderpay's handlers inside Mock Service Worker (MSW intercepts),
//   3. hand-written MSW handlers keeping orders in a Map: what an MSW user
//      writes today, with none of the validation, state machine or logs;
//   4. hand-written MSW handlers doing the same work as the service: the
//      JS mock of tests/bench/mock.mjs (validation, state machines, three
//      log records a request) behind one MSW handler.
// Run after building the package: node tests/bench/peer.mjs [clients]
// Prints the best of five rounds of each.
// It installs the package into a throwaway app, as a user would, and runs
// the body of this file there.
import { readFileSync } from "node:fs";

if (!process.env.ORDERPAY_BENCH_INSIDE) {
  const { makeConsumer } = await import("../node/consumer.mjs");
  const app = makeConsumer({ link: ["msw"] });
  const source = readFileSync(new URL(import.meta.url), "utf8");
  process.env.ORDERPAY_BENCH_INSIDE = "1";
  const { execFileSync } = await import("node:child_process");
  const { writeFileSync } = await import("node:fs");
  writeFileSync(`${app.dir}/peer.mjs`, source);
  writeFileSync(`${app.dir}/mock.mjs`, readFileSync(new URL("./mock.mjs", import.meta.url), "utf8"));
  execFileSync("node", ["peer.mjs", ...process.argv.slice(2)], { cwd: app.dir, stdio: "inherit" });
  process.exit(0);
}

const { http, HttpResponse } = await import("msw");
const { setupServer } = await import("msw/node");
const { Service } = await import("orderpay");
const { createFetch } = await import("orderpay/fetch");
const { createHandlers } = await import("orderpay/msw");
const { createMock } = await import("./mock.mjs");

const clients = Number(process.argv[2] ?? 3000);
const json = { "content-type": "application/json" };

async function workload(fetchFn) {
  const start = performance.now();
  for (let n = 0; n < clients; n++) {
    const created = await (await fetchFn("http://localhost/api/order/create", {
      method: "POST", headers: json, body: JSON.stringify({ userId: `u${n % 50}`, price: (n % 500) + 1.5, description: "peer" }),
    })).json();
    const id = created.data.orderId;
    await (await fetchFn("http://localhost/api/payment/pay", {
      method: "POST", headers: json, body: JSON.stringify({ orderId: id, amount: 1.5, paymentMethod: "CARD" }),
    })).json();
    await (await fetchFn(`http://localhost/api/order/${id}`)).json();
  }
  const seconds = (performance.now() - start) / 1000;
  return { requests: clients * 3, seconds: +seconds.toFixed(3), requestsPerSecond: Math.round((clients * 3) / seconds) };
}

function handWritten() {
  const orders = new Map();
  let next = 0;
  return [
    http.post("http://localhost/api/order/create", async ({ request }) => {
      const body = await request.json();
      const order = { orderId: `ORD-${String(next++).padStart(8, "0")}`, ...body, status: "CREATED", createdAt: Date.now() };
      orders.set(order.orderId, order);
      return HttpResponse.json({ code: 0, msg: "success", data: order });
    }),
    http.post("http://localhost/api/payment/pay", async ({ request }) => {
      const body = await request.json();
      return HttpResponse.json({ code: 0, msg: "success", data: { paymentId: "PAY-00000000", ...body, status: "SUCCESS" } });
    }),
    http.get("http://localhost/api/order/:id", ({ params }) =>
      HttpResponse.json({ code: 0, msg: "success", data: orders.get(params.id) ?? null })),
  ];
}

function sameWork() {
  const mock = createMock({ failureRate: 0 });
  return [
    http.all("http://localhost/api/*", async ({ request }) => {
      const text = request.method === "GET" || request.method === "HEAD" ? "" : await request.text();
      const headers = Object.fromEntries(request.headers);
      const envelope = mock.handle(request.method, new URL(request.url).pathname, text || null, headers);
      return HttpResponse.json(envelope, { status: envelope.code >= 400 ? envelope.code : 200 });
    }),
  ];
}

async function underMsw(handlers) {
  const server = setupServer(...handlers);
  server.listen({ onUnhandledRequest: "error" });
  try {
    return await workload(globalThis.fetch);
  } finally {
    server.close();
  }
}

// Rounds take turns, and each way keeps its best, so that load on a
// shared machine hits all four alike (five: under load, one slow round of three
// was often the best a way got).
const ways = {
  "orderpay createFetch": () => workload(createFetch({ service: new Service({ seed: 1, failureRate: 0 }), warn: false })),
  "orderpay handlers in MSW": () => underMsw(createHandlers({ service: new Service({ seed: 1, failureRate: 0 }), warn: false })),
  "hand-written MSW handlers": () => underMsw(handWritten()),
  "hand-written MSW handlers doing the same work": () => underMsw(sameWork()),
};
const results = {};
for (let round = 0; round < 5; round++) {
  for (const [name, run] of Object.entries(ways)) {
    const r = await run();
    if (!results[name] || r.requestsPerSecond > results[name].requestsPerSecond) results[name] = r;
  }
}
for (const [name, r] of Object.entries(results)) console.log(JSON.stringify({ name, ...r }));
for (const peer of ["hand-written MSW handlers", "hand-written MSW handlers doing the same work"]) {
  const base = results[peer].requestsPerSecond;
  for (const name of ["orderpay createFetch", "orderpay handlers in MSW"]) {
    console.log(`${name}: ${(results[name].requestsPerSecond / base).toFixed(2)}x the ${peer}`);
  }
}
