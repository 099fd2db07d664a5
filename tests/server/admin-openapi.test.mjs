// The admin API's OpenAPI document (src/js/server/admin-openapi.js) held to
// the server's real routes, so the two cannot drift: every admin route the
// server has is in it and nothing else, every operation in it answers as
// it says (status, content type, body schema), and its security says what
// the server asks. It is valid OpenAPI 3.1, ships in the package, and the
// server serves it with its own address.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { after, before, test } from "node:test";

import SwaggerParser from "@apidevtools/swagger-parser";

import { adminDocumentText, loadChecker } from "./openapi.mjs";
import { call, consumer, root, serve, stop } from "./serve.mjs";

let server;
let checker;
before(async () => {
  server = await serve(["--port", "0", "--seed", "3"]);
  checker = await loadChecker(adminDocumentText());
});
after(() => stop(server));

/** The address of a documented path; a session's routes act on the session "doc-test". */
const admin = (path) => `${server.origin}${path.replace("{session}", "doc-test")}`;

/** "METHOD /__orderpay/path" of every operation of a document. */
const operations = (doc) =>
  Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`)).sort();

test("it is valid OpenAPI 3.1, shipped as orderpay/openapi-admin.json, and served with the server's address", async () => {
  const shipped = JSON.parse(adminDocumentText());
  await SwaggerParser.validate(structuredClone(shipped));
  const installed = createRequire(join(consumer().dir, "index.js")).resolve("orderpay/openapi-admin.json");
  assert.deepEqual(JSON.parse(readFileSync(installed, "utf8")), shipped);
  const served = await call(admin("/__orderpay/openapi-admin.json"));
  assert.equal(served.status, 200);
  assert.deepEqual(served.body.servers, [{ url: server.origin }]);
  assert.deepEqual({ ...served.body, servers: shipped.servers }, shipped);
  assert.equal(served.body.info.version, JSON.parse(readFileSync(join(root, "pkg", "package.json"), "utf8")).version);
});

test("every admin route the server has is documented, and every documented path is a route", async () => {
  const { adminRoutes, PREFIX } = await import(join(root, "pkg", "server", "admin.js"));
  const { SERVER_ROUTES } = await import(join(root, "pkg", "server", "session_name.js"));
  const routes = adminRoutes({});
  // Each route that acts on a session is also under /sessions/{session}/, beside the list and one session.
  const routed = [
    ...routes.map(([method, path]) => `${method} ${PREFIX}${path}`),
    ...routes.filter(([, path]) => !SERVER_ROUTES.has(path)).map(([method, path]) => `${method} ${PREFIX}/sessions/{session}${path}`),
    `GET ${PREFIX}/sessions`,
    `GET ${PREFIX}/sessions/{session}`,
    `DELETE ${PREFIX}/sessions/{session}`,
  ].sort();
  assert.deepEqual(operations(checker.doc), routed);
  // The server's own 404 lists its routes: the same paths.
  const unknown = await call(admin("/__orderpay/no-such-route"));
  const listed = /the admin routes are (.*)$/.exec(unknown.body.msg)[1].split(", ").sort();
  assert.deepEqual(listed, Object.keys(checker.doc.paths).sort());
});

test("the document is written from the router's own table: each route's operationId names its operation", async () => {
  const { adminRoutes, PREFIX } = await import(join(root, "pkg", "server", "admin.js"));
  for (const [method, path, operationId] of adminRoutes({})) {
    assert.equal(checker.doc.paths[PREFIX + path]?.[method.toLowerCase()]?.operationId, operationId, `${method} ${path}`);
  }
});

test("the limits it documents for the Service's options are the core's: the bound taken, one past it refused", async () => {
  const { Service } = await import(join(root, "pkg", "node.js"));
  const taken = (options) => {
    try {
      new Service(options).free();
      return true;
    } catch (error) {
      assert.ok(error instanceof RangeError, `${JSON.stringify(options)}: ${error}`);
      return false;
    }
  };
  const options = checker.doc.components.schemas.ServiceOptions.properties;
  let checked = 0;
  for (const [name, { type, minimum, maximum }] of Object.entries(options)) {
    if (maximum === undefined) continue;
    const step = type === "integer" ? 1 : 0.001;
    // Past 2^53 a whole number has no neighbour: the bound is JS's largest safe integer there.
    const past = maximum >= Number.MAX_SAFE_INTEGER ? maximum + 2 : maximum + step;
    assert.deepEqual([taken({ [name]: minimum }), taken({ [name]: maximum }), taken({ [name]: minimum - step }), taken({ [name]: past })],
      [true, true, false, false], name);
    checked += 1;
  }
  assert.ok(checked >= 5, `${checked} options checked`);
});

/** A request for an operation: its documented example body, or for PUT /snapshot the server's own snapshot. */
async function requestFor(method, path, op) {
  if (method === "PUT" && path.endsWith("/snapshot")) return (await fetch(admin(path))).text();
  return op.requestBody?.content["application/json"].example;
}

/**
 * A payment awaiting a challenge (a test card's), in the session a documented
 * path acts on (doc-test under /sessions/{session}/, else the default): its id.
 */
async function challenged(path) {
  const headers = path.includes("{session}") ? { "x-orderpay-session": "doc-test" } : {};
  const order = await call(`${server.url}/api/order/create`, "POST", { userId: "u1", price: 5 }, headers);
  const pay = await call(`${server.url}/api/payment/pay`, "POST",
    { orderId: order.body.data.orderId, amount: 5, paymentMethod: "CARD", cardNumber: "4000 0025 0000 3155" }, headers);
  assert.equal(pay.body.data.status, "REQUIRES_ACTION", JSON.stringify(pay.body));
  return pay.body.data.paymentId;
}

/**
 * A webhook endpoint's id, or one of its deliveries' (`delivery`), in the
 * session a documented path acts on: an endpoint added, and for a delivery
 * an order created for it.
 */
async function webhookId(path, delivery) {
  const prefix = path.includes("{session}") ? "/__orderpay/sessions/{session}" : "/__orderpay";
  const added = await call(admin(`${prefix}/webhooks`), "POST", { url: "http://127.0.0.1:9/unreachable", events: ["order.created"] });
  if (!delivery) return added.body.data.webhook.id;
  const headers = path.includes("{session}") ? { "x-orderpay-session": "doc-test" } : {};
  await call(`${server.url}/api/order/create`, "POST", { userId: "u1", price: 5 }, headers);
  const endpoints = (await call(admin(`${prefix}/webhooks`))).body.data.webhooks;
  return endpoints.find((e) => e.id === added.body.data.webhook.id).deliveries[0].id;
}

/** Sends it and reads the answer; a stream (server-sent events) is read up to its headers. */
async function answer(method, path, body) {
  if (path.includes("{paymentId}")) path = path.replace("{paymentId}", await challenged(path));
  if (path.includes("/webhooks/") && path.includes("{id}")) path = path.replace("{id}", await webhookId(path, path.includes("/deliveries/")));
  if (path.endsWith("/events") && !path.endsWith("/webhooks/events")) {
    const stream = new AbortController();
    const res = await fetch(admin(path), { signal: stream.signal });
    stream.abort();
    return { status: res.status, headers: Object.fromEntries(res.headers), body: "" };
  }
  return call(admin(path), method, body);
}

test("every documented operation answers as the document says", async () => {
  // Records and spans to read. The reset's example starts a virtual clock, which advance's then moves.
  await call(`${server.url}/api/order/create`, "POST", { userId: "u1", price: 5 });
  for (const [path, item] of Object.entries(checker.doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const reply = await answer(method.toUpperCase(), path, await requestFor(method.toUpperCase(), path, op));
      assert.equal(reply.status, 200, `${method} ${path}: ${JSON.stringify(reply.body)}`);
      checker.check(method, path, reply);
      if (method === "get") assert.equal((await fetch(admin(path), { method: "HEAD" })).status, 200, `HEAD ${path}`);
    }
  }
});

test("the documented refusals: a bad query or body 400, another origin 403, a body too large 413", async () => {
  const cases = [
    ["GET", "/__orderpay/logs?after=x", undefined, {}, 400],
    ["GET", "/__orderpay/events?after=x", undefined, {}, 400],
    ["GET", "/__orderpay/spans?traceId=XYZ", undefined, {}, 400],
    ["POST", "/__orderpay/force-next", { outcome: "maybe" }, {}, 400],
    ["POST", "/__orderpay/reset", { failureRate: 3 }, {}, 400],
    ["POST", "/__orderpay/advance", { ms: -1 }, {}, 400],
    ["PUT", "/__orderpay/snapshot", '{"not":"a snapshot"}', {}, 400],
    ["PUT", "/__orderpay/scenario", { rules: [{ then: { kind: "nope" } }] }, {}, 400],
    ["POST", "/__orderpay/provider-states", { state: "a unicorn exists", action: "setup" }, {}, 400],
    ["POST", "/__orderpay/advance", { ms: 1, pad: "x".repeat(70 * 1024) }, {}, 413],
    ["GET", "/__orderpay/settings", undefined, { origin: "http://evil.example" }, 403],
    ["GET", "/__orderpay/health", undefined, { "x-big": "x".repeat(81 * 1024) }, 431],
  ];
  for (const [method, path, body, headers, status] of cases) {
    const reply = await call(admin(path), method, body, headers);
    assert.equal(reply.status, status, `${method} ${path}`);
    checker.check(method, path, reply);
  }
});

test("its security is the server's: with a token, only the operations that need none answer without it", async () => {
  const guarded = await serve(["--port", "0", "--admin-token", "s3cret-token"]);
  try {
    for (const [path, item] of Object.entries(checker.doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        if (path.endsWith("/events") || method !== "get") continue;
        const open = Array.isArray(op.security) && op.security.length === 0;
        const reply = await call(`${guarded.origin}${path.replace("{session}", "doc-test")}`);
        assert.equal(reply.status, open ? 200 : 401, `${method} ${path}`);
        checker.check(method, path, reply);
      }
    }
    const settings = checker.doc.paths["/__orderpay/settings"].get;
    assert.equal(settings.security, undefined, "the rest take the document's security");
    assert.deepEqual(checker.doc.security, [{}, { adminToken: [] }]);
    const withToken = await call(`${guarded.origin}/__orderpay/settings`, "GET", undefined, { authorization: "Bearer s3cret-token" });
    assert.equal(withToken.status, 200);
  } finally {
    await stop(guarded);
  }
});
