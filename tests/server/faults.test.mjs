// The socket-level network faults of `orderpay serve` (server/fault_on_socket.js),
// written by a real node:http server on 127.0.0.1 and met by Node's own
// fetch and by a bare node:http client: what each fault looks like to a
// client's HTTP stack.
import assert from "node:assert/strict";
import { createServer, request as httpRequest } from "node:http";
import { join } from "node:path";
import { after, before, test } from "node:test";

import { root } from "./serve.mjs";

const { FaultWriter } = await import(join(root, "pkg", "server", "fault_on_socket.js"));

const ANSWER = {
  status: 200,
  headers: { "content-type": "application/json", "x-orderpay-fault": "network" },
  text: JSON.stringify({ code: 0, msg: "success", data: { orderId: "ORD-ABCDEFGH", note: "x".repeat(200) } }),
};

let server;
let base;
let writer;
/** Sockets the server saw close, by the request's path. */
const closed = new Map();
before(async () => {
  writer = new FaultWriter();
  server = createServer((req, res) => {
    const url = new URL(req.url, "http://x");
    const fault = { kind: url.searchParams.get("kind"), ms: Number(url.searchParams.get("ms") ?? NaN) };
    const at = performance.now();
    req.socket.once("close", () => closed.set(url.pathname, performance.now() - at));
    writer.write(res, fault, url.searchParams.has("nothing") ? null : ANSWER);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${server.address().port}`;
});
after(() => server.close());

/** What fetch rejects with: the error and its cause's code. */
async function rejection(promise) {
  try {
    await promise;
  } catch (error) {
    return { error, code: error.cause?.code };
  }
  assert.fail("expected a rejection");
}

test("reset and error: fetch rejects with a TypeError whose cause is ECONNRESET", async () => {
  for (const kind of ["reset", "error"]) {
    const { error, code } = await rejection(fetch(`${base}/${kind}?kind=${kind}`, { method: "POST", body: "{}" }));
    assert.ok(error instanceof TypeError, `${kind}: ${error}`);
    assert.equal(error.message, "fetch failed");
    assert.equal(code, "ECONNRESET", kind);
  }
});

test("empty: the connection closes with no answer; fetch rejects with a TypeError, the other side closed", async () => {
  const { error, code } = await rejection(fetch(`${base}/empty?kind=empty&nothing`));
  assert.ok(error instanceof TypeError);
  assert.equal(code, "UND_ERR_SOCKET");
  assert.match(error.cause.message, /other side closed/);
});

test("short: the headers with the whole content-length, half the body, then the connection closes", async () => {
  const response = await fetch(`${base}/short?kind=short`);
  assert.equal(response.status, 200);
  assert.equal(response.headers.get("content-length"), String(ANSWER.text.length));
  assert.equal(response.headers.get("x-orderpay-fault"), "network");
  const { error, code } = await rejection(response.text());
  assert.ok(error instanceof TypeError, String(error));
  assert.equal(error.message, "terminated");
  assert.equal(code, "UND_ERR_SOCKET");
  // A bare client sees exactly half the bytes before the end.
  const raw = await rawGet(`${base}/short-raw?kind=short`);
  assert.equal(raw.body.length, Math.floor(ANSWER.text.length / 2));
  assert.equal(raw.complete, false);
});

test("hang: no answer until the client gives up; its AbortSignal's reason is what fetch rejects with", async () => {
  const { error } = await rejection(fetch(`${base}/hang-abort?kind=hang&ms=60000`, { signal: AbortSignal.timeout(100) }));
  assert.equal(error.name, "TimeoutError");
  await until(() => closed.has("/hang-abort"));
  assert.ok(closed.get("/hang-abort") < 10_000, "the server let the connection go when the client did");
});

test("hang: bounded on the server's side, then the connection closes with no answer", async () => {
  const started = performance.now();
  const { error, code } = await rejection(fetch(`${base}/hang-bound?kind=hang&ms=150`));
  assert.ok(error instanceof TypeError);
  assert.equal(code, "UND_ERR_SOCKET");
  assert.ok(performance.now() - started >= 140, "not before its bound");
});

test("dribble: the whole answer, its body in pieces spread over ms", async () => {
  const raw = await rawGet(`${base}/dribble?kind=dribble&ms=200`);
  assert.equal(raw.complete, true);
  assert.equal(raw.status, 200);
  assert.equal(raw.body, ANSWER.text);
  assert.ok(raw.pieces.length >= 5, `${raw.pieces.length} pieces`);
  assert.ok(raw.pieces.at(-1) - raw.pieces[0] >= 150, `the last piece came ${raw.pieces.at(-1) - raw.pieces[0]} ms after the first`);
  // Node's fetch reads it whole.
  assert.equal(await (await fetch(`${base}/dribble-fetch?kind=dribble&ms=50`)).text(), ANSWER.text);
});

test("stop() ends the hangs and dribbles in progress at once", async () => {
  const hanging = rejection(fetch(`${base}/hang-stop?kind=hang&ms=60000`));
  const dribbling = rawGet(`${base}/dribble-stop?kind=dribble&ms=60000`);
  await new Promise((resolve) => setTimeout(resolve, 100));
  writer.stop();
  const { error } = await hanging;
  assert.ok(error instanceof TypeError);
  const raw = await dribbling;
  assert.equal(raw.complete, false);
  assert.ok(raw.body.length > 0 && raw.body.length < ANSWER.text.length);
});

/** A GET with node:http: status, body, whether it came whole, and when each piece arrived (ms). */
function rawGet(url) {
  return new Promise((resolve, reject) => {
    const pieces = [];
    let body = "";
    const req = httpRequest(url, { agent: false }, (res) => {
      res.setEncoding("utf8");
      res.on("data", (piece) => {
        pieces.push(performance.now());
        body += piece;
      });
      res.on("close", () => resolve({ status: res.statusCode, body, complete: res.complete, pieces }));
    });
    req.on("error", reject);
    req.end();
  });
}

async function until(condition, ms = 5000) {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) assert.fail("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
