// `orderpay serve` over real HTTP on 127.0.0.1: the typical flow with curl
// and with fetch, every answer held against the OpenAPI document, and the
// ways a real server must behave (CORS, keep-alive, 413 while streaming,
// slow clients, bodies that are not UTF-8, a port in use).
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { Agent, request as httpRequest } from "node:http";
import { connect, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";

import autocannon from "autocannon";

import { loadChecker } from "./openapi.mjs";
import { call, consumer, serve, serveFails, stop } from "./serve.mjs";

let server;
let checker;
before(async () => {
  checker = await loadChecker();
  server = await serve(["--port", "0", "--seed", "7", "--failure-rate", "0", "--headers-timeout", "500", "--request-timeout", "1500"]);
});
after(() => stop(server));

/** The newest `response` record of the server's log. */
async function lastResponseRecord() {
  const { records } = (await call(`${server.origin}/__orderpay/logs`)).body.data;
  return records.findLast((r) => r.stage === "response");
}

/** An answer of the gateway, checked against the document. */
async function api(method, path, body, headers) {
  const reply = await call(server.url + path, method, body, headers);
  checker.check(method, path, reply);
  return reply;
}

test("the typical flow with Node's fetch, every answer as the document says", async () => {
  const created = await api("POST", "/api/order/create", { userId: "u1", price: 25.5, description: "two coffees" }, { "X-User-Id": "u1" });
  assert.equal(created.status, 200);
  assert.equal(created.body.code, 0);
  assert.match(created.headers["x-b3-traceid"], /^[0-9a-f]{32}$/);
  const id = created.body.data.orderId;
  assert.equal((await api("GET", `/api/order/${id}`)).body.data.status, "CREATED");
  const paid = await api("POST", "/api/payment/pay", { orderId: id, amount: 25.5, paymentMethod: "CARD" });
  assert.equal(paid.body.data.status, "SUCCESS");
  assert.equal((await api("POST", `/api/order/${id}/pay`)).body.code, 0);
  assert.equal((await api("GET", `/api/payment/${paid.body.data.paymentId}`)).body.data.status, "SUCCESS");
  assert.equal((await api("POST", `/api/payment/refund/${paid.body.data.paymentId}`)).body.code, 0);
  const deleted = await api("POST", `/api/order/delete/${id}`);
  assert.deepEqual(deleted.body, { code: -1, msg: "Paid order cannot be deleted", data: null });
  const batch = await api("GET", "/api/test/order/batch?count=3");
  assert.equal(batch.body.data.count, 3);
  // Malformed requests: their own status, documented too.
  assert.equal((await api("POST", "/api/order/create", { userId: "u1", price: "12" })).status, 400);
  assert.equal((await api("POST", "/api/order/create", "{}", { "content-type": "text/plain" })).status, 415);
  assert.equal((await api("GET", "/api/order/create")).headers.allow, "POST");
  assert.ok(checker.checked >= 11);
});

test("the typical flow with curl, against `npx orderpay serve` as the README starts it", async () => {
  const dir = consumer().dir;
  const viaNpx = await serve(["--port", "0", "--failure-rate", "0"], { command: ["npx", "--no-install", "orderpay"], cwd: dir });
  try {
    const curl = (...args) => {
      const out = execFileSync("curl", ["-s", "-w", "\n%{http_code}", ...args]).toString();
      const at = out.lastIndexOf("\n");
      return { status: Number(out.slice(at + 1)), body: JSON.parse(out.slice(0, at)) };
    };
    const created = curl("-X", "POST", `${viaNpx.url}/api/order/create`, "-H", "Content-Type: application/json", "-d", '{"userId":"u1","price":9.9}');
    assert.equal(created.status, 200);
    assert.equal(created.body.data.price, 9.9);
    const id = created.body.data.orderId;
    const paid = curl("-X", "POST", `${viaNpx.url}/api/payment/pay`, "-H", "Content-Type: application/json", "-d", JSON.stringify({ orderId: id, amount: 9.9, paymentMethod: "CARD" }));
    assert.equal(paid.body.data.status, "SUCCESS");
    assert.equal(curl("-X", "POST", `${viaNpx.url}/api/order/${id}/pay`).body.code, 0);
    assert.equal(curl(`${viaNpx.url}/api/order/${id}`).body.data.status, "PAID");
    const logs = curl(`${viaNpx.url}/__orderpay/logs`).body.data.records;
    assert.deepEqual(logs.filter((r) => r.stage === "response").map((r) => r.uri), [
      "/api/order/create", "/api/payment/pay", `/api/order/${id}/pay`, `/api/order/${id}`,
    ]);
  } finally {
    await stop(viaNpx);
  }
});

test("CORS: a preflight is answered, and the trace headers are readable from another origin", async () => {
  const pre = await fetch(`${server.url}/api/order/create`, {
    method: "OPTIONS",
    headers: { origin: "http://localhost:5173", "access-control-request-method": "POST", "access-control-request-headers": "content-type,x-user-id,x-b3-traceid" },
  });
  assert.equal(pre.status, 204);
  assert.equal(pre.headers.get("access-control-allow-origin"), "*");
  assert.match(pre.headers.get("access-control-allow-methods"), /POST/);
  assert.equal(pre.headers.get("access-control-allow-headers"), "content-type,x-user-id,x-b3-traceid");
  const reply = await call(`${server.url}/api/order/ORD-NOPE0000`, "GET", undefined, { origin: "http://localhost:5173" });
  assert.equal(reply.headers["access-control-allow-origin"], "*");
  assert.match(reply.headers["access-control-expose-headers"], /x-b3-traceid/);
});

test("keep-alive: several requests over one connection", async () => {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const sockets = new Set();
  for (let i = 0; i < 3; i++) {
    await new Promise((resolve, reject) => {
      const req = httpRequest(`${server.url}/api/order/ORD-NOPE0000`, { agent }, (res) => {
        assert.equal(res.headers.connection, "keep-alive");
        sockets.add(req.socket);
        res.resume();
        res.on("end", resolve);
      });
      req.on("error", reject);
      req.end();
    });
  }
  agent.destroy();
  assert.equal(sockets.size, 1);
});

test("a body that is not UTF-8 gets a 400 naming the body", async () => {
  const res = await fetch(`${server.url}/api/order/create`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]),
  });
  const body = await res.json();
  assert.equal(res.status, 400);
  assert.equal(body.msg, "body: not valid UTF-8 text");
  checker.check("POST", "/api/order/create", { status: res.status, headers: Object.fromEntries(res.headers), body });
});

/** Sends raw bytes on a new connection; resolves with everything received until it closes. */
function rawExchange(port, write) {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let got = "";
    const started = Date.now();
    socket.on("data", (d) => (got += d));
    socket.on("error", () => {}); // a reset after the answer is what closing early looks like
    socket.on("close", () => resolve({ text: got, ms: Date.now() - started }));
    socket.on("connect", () => write(socket).catch(reject));
  });
}

test("a body over 1 MiB is refused with 413 while it streams in, before it is all sent", async () => {
  const port = Number(new URL(server.url).port);
  let sent = 0;
  let answeredAt = -1;
  const { text } = await rawExchange(port, async (socket) => {
    socket.on("data", () => {
      if (answeredAt < 0) answeredAt = sent;
    });
    socket.write("POST /api/order/create HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n");
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    // Up to 8 MiB, stopping once the answer is in.
    while (sent < 8 * 1024 * 1024 && answeredAt < 0 && !socket.destroyed) {
      socket.write(chunk.length.toString(16) + "\r\n");
      socket.write(chunk);
      socket.write("\r\n");
      sent += chunk.length;
      await new Promise((r) => setTimeout(r, 5));
    }
  });
  assert.match(text, /^HTTP\/1\.1 413 /);
  assert.match(text, /"code":413/);
  // No length was declared and the rest was never read: the answer says only that it is over.
  const stopped = "body: over the limit of 1048576 bytes; reading stopped there";
  assert.match(text, new RegExp(`"msg":"${stopped}"`));
  assert.doesNotMatch(text, /1048577/);
  // The service's log record says the same as the answer, not a stand-in's size.
  assert.equal((await lastResponseRecord()).msg, stopped);
  assert.ok(answeredAt > 1024 * 1024 && answeredAt < 4 * 1024 * 1024, `answered after ${answeredAt} bytes`);
  // A declared length over the limit is refused before any of it is read.
  const big = await rawExchange(port, async (socket) => {
    socket.write("POST /api/order/create HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 5000000\r\n\r\n{");
  });
  assert.match(big.text, /^HTTP\/1\.1 413 /);
  // The declared size is the one named, in the answer and in the log record.
  const declared = "body: 5000000 bytes (its content-length) is over the limit of 1048576 bytes";
  assert.match(big.text, /"msg":"body: 5000000 bytes \(its content-length\) is over the limit of 1048576 bytes"/);
  const record = await lastResponseRecord();
  assert.equal(record.msg, declared);
  assert.equal(record.httpStatus, 413);
});

test("a slow client is timed out: headers never finished, and a body that never ends", async () => {
  const port = Number(new URL(server.url).port);
  const headers = await rawExchange(port, async (socket) => {
    socket.write("GET /api/order/ORD-NOPE0000 HTTP/1.1\r\nhost: 127.0.0.1\r\n");
  });
  // A 408 at all is the timeout: a client that never finishes is otherwise never answered.
  assert.match(headers.text, /^HTTP\/1\.1 408 /, `closed after ${headers.ms} ms`);
  const body = await rawExchange(port, async (socket) => {
    socket.write("POST /api/order/create HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{\"userId\"");
  });
  assert.match(body.text, /^HTTP\/1\.1 408 /, `closed after ${body.ms} ms`);
  // The server still answers others.
  assert.equal((await call(`${server.url}/api/order/ORD-NOPE0000`)).status, 200);
});

test("a port in use: a clear message and exit code 3, no stack trace", async () => {
  const taken = createServer();
  await new Promise((r) => taken.listen(0, "127.0.0.1", r));
  const { port } = taken.address();
  try {
    const { code, output } = await serveFails(["--port", String(port)]);
    assert.equal(code, 3);
    assert.match(output, new RegExp(`orderpay: 127\\.0\\.0\\.1:${port} is already in use; .*--port`));
    assert.doesNotMatch(output, /\n\s+at /);
  } finally {
    taken.close();
  }
});

test("command-line mistakes name the option and exit with 2", async () => {
  for (const [args, pattern] of [
    [["--failure-rate", "2"], /--failure-rate: expected a number from 0 to 1, got "2"/],
    [["--port", "http"], /--port: expected a whole number from 0 to 65535/],
    [["--colour"], /unknown option "--colour"/],
    [["--base", "shop"], /--base: expected a path such as \/shop/],
  ]) {
    const { code, output } = await serveFails(args);
    assert.equal(code, 2, output);
    assert.match(output, pattern);
  }
});

test("--base puts the gateway under a path, and the document's server says so", async () => {
  const shop = await serve(["--port", "0", "--base", "/shop"]);
  try {
    assert.match(shop.url, /\/shop$/);
    assert.equal((await call(`${shop.url}/api/order/ORD-NOPE0000`)).body.msg, "Order not found");
    assert.equal((await call(`${shop.origin}/api/order/ORD-NOPE0000`)).status, 404);
    const doc = (await call(`${shop.origin}/__orderpay/openapi.json`)).body;
    assert.equal(doc.servers[0].url, shop.url);
  } finally {
    await stop(shop);
  }
});

test("--max-orders is passed to the service", async () => {
  const capped = await serve(["--port", "0", "--max-orders", "2"]);
  try {
    const settings = (await call(`${capped.origin}/__orderpay/settings`)).body.data;
    assert.equal(settings.settings.maxOrders, 2);
    assert.equal("maxOrdersIgnored" in settings, false, "no fallback that runs without it");
    const codes = [];
    for (let i = 0; i < 3; i++) {
      const reply = await call(`${capped.url}/api/order/create`, "POST", { userId: "u" + i, price: 1 });
      checker.check("POST", "/api/order/create", reply);
      codes.push(reply.body.code);
    }
    assert.deepEqual(codes.slice(0, 2), [0, 0]);
    assert.notEqual(codes[2], 0);
  } finally {
    await stop(capped);
  }
});

test("a load of thousands of requests a second leaves the server up (Node 20's V8 crashed under it)", async () => {
  const result = await new Promise((resolve, reject) => {
    autocannon(
      {
        url: server.url,
        connections: 4,
        duration: 4,
        maxOverallRequests: 40_000,
        requests: [
          { method: "POST", path: "/api/order/create", headers: { "content-type": "application/json" }, body: JSON.stringify({ userId: "load", price: 1 }) },
          { method: "GET", path: "/api/order/ORD-NOPE0000" },
        ],
      },
      (error, r) => (error ? reject(error) : resolve(r)),
    );
  });
  assert.equal(result.errors + result.timeouts + result.non2xx, 0);
  assert.ok(result["2xx"] > 1000, `${result["2xx"]} answers`);
  assert.equal(server.proc.exitCode, null);
});

test("headers past what Node reads still get a JSON 431", async () => {
  const port = Number(new URL(server.url).port);
  const { text } = await rawExchange(port, async (socket) => {
    socket.write(`GET /api/order/ORD-NOPE0000 HTTP/1.1\r\nhost: 127.0.0.1\r\nx-big: ${"a".repeat(90 * 1024)}\r\n\r\n`);
  });
  assert.match(text, /^HTTP\/1\.1 431 /);
  assert.match(text, /content-type: application\/json/);
  assert.match(text, /"code":431,"msg":"headers: over the 81920 bytes this server reads"/);
});

test("--playground serves another directory at /, still nothing outside it", async () => {
  const dir = mkdtempSync(join(tmpdir(), "orderpay-playground-"));
  writeFileSync(join(dir, "index.html"), "<!doctype html><title>mine</title>");
  const own = await serve(["--port", "0", "--playground", dir]);
  try {
    const page = await fetch(`${own.origin}/`);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /<title>mine<\/title>/);
    assert.equal((await fetch(`${own.origin}/pkg/package.json`)).status, 200);
    assert.equal((await fetch(`${own.origin}/app.js`)).status, 404);
  } finally {
    await stop(own);
  }
});
