// The `code` literals of the published types (ErrorCode in orderpay.d.ts)
// against what the package really answers, so the two cannot drift: the
// union equals the codes the source can give, every refusal the fixtures
// enumerate is in it, every code in it but 500 comes back from real
// requests (handle and createFetch), and no request gives a code outside it.
import assert from "node:assert/strict";
import { test } from "node:test";
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

import { Service } from "../../pkg/node.js";
import { createFetch } from "../../pkg/fetch.inline.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const ts = createRequire(join(root, "tests/package.json"))("typescript");

const types = join(root, "pkg/orderpay.d.ts");
// The aliases read here need no global type: no lib, which keeps this quick.
const program = ts.createProgram([types], { strict: true, noEmit: true, noLib: true, types: [] });

/** The members of a union of number literals that the built orderpay.d.ts names `name`. */
function literalsOf(name) {
  const alias = program.getSourceFile(types).statements.find((s) => ts.isTypeAliasDeclaration(s) && s.name.text === name);
  assert.ok(alias, `orderpay.d.ts declares no type ${name}`);
  const type = program.getTypeChecker().getTypeFromTypeNode(alias.type);
  const members = type.isUnion() ? type.types : [type];
  assert.ok(members.every((t) => t.isNumberLiteral()), `${name} is a union of number literals`);
  return new Set(members.map((t) => t.value));
}

/** The text between `header` and the end of the block it opens (a `}` at its indentation). */
function block(text, header) {
  const start = text.indexOf(header);
  assert.notEqual(start, -1, `no ${header}`);
  const indent = text.slice(text.lastIndexOf("\n", start) + 1, start);
  return text.slice(start, text.indexOf(`\n${indent}}`, start));
}

/**
 * The error codes the source can give: -1 (ApiError::code for a business
 * rejection), each status of ApiError::http_status but 200 (a refused
 * request's code is its status), and the envelopes the JS layer writes
 * itself (a freed Service, a module fault, the Service Worker's).
 */
function codesInSource() {
  const error = readFileSync(join(root, "src/gateway/error.rs"), "utf8");
  const codes = new Set();
  for (const [, n] of block(error, "pub fn code(").matchAll(/=> (-\d+)/g)) codes.add(Number(n));
  for (const [, n] of block(error, "pub fn http_status(").matchAll(/=> (\d{3})/g)) if (n !== "200") codes.add(Number(n));
  const js = join(root, "src/js");
  for (const file of readdirSync(js).filter((f) => f.endsWith(".js"))) {
    for (const [, n] of readFileSync(join(js, file), "utf8").matchAll(/\bcode: (\d{3})\b/g)) codes.add(Number(n));
  }
  return codes;
}

const sorted = (set) => [...set].sort((a, b) => a - b);
const errorCodes = literalsOf("ErrorCode");

test("ErrorCode is exactly the codes the source can give, and EnvelopeCode adds 0", () => {
  assert.deepEqual(sorted(errorCodes), sorted(codesInSource()));
  assert.deepEqual(sorted(literalsOf("EnvelopeCode")), [0, ...sorted(errorCodes)].sort((a, b) => a - b));
});

test("every refusal the fixtures enumerate has its code in ErrorCode", () => {
  // "STATUS msg" a line: a refused request's code is its status.
  const lines = readFileSync(join(root, "tests/fixtures/request-refusals.txt"), "utf8").trim().split("\n");
  const fixture = new Set(lines.map((line) => Number(line.split(" ")[0])));
  assert.deepEqual(sorted(fixture), [400, 404, 405]);
  for (const code of fixture) assert.ok(errorCodes.has(code), `${code} is not in ErrorCode`);
});

const order = { userId: "u-1", price: 25.5 };
const huge = "x".repeat(9000);

/** One request per error code, as a caller makes it: [method, path, body, headers]. */
function refusals(orderId) {
  return {
    [-1]: ["GET", "/api/order/ORD-ZZZZZZZZ"],
    400: ["POST", "/api/order/create", "{"],
    404: ["GET", "/api/nowhere"],
    405: ["DELETE", `/api/order/${orderId}`],
    413: ["POST", "/api/order/create", "x".repeat(2 * 1024 * 1024)],
    414: ["GET", `/api/order/${huge}`],
    415: ["POST", "/api/order/create", JSON.stringify(order), { "content-type": "text/plain" }],
    431: ["GET", `/api/order/${orderId}`, null, Array.from({ length: 1001 }, (_, i) => [`x-${i}`, "1"])],
    507: ["POST", "/api/order/create", order],
  };
}

/** Checks one answer's shape: code 0 with msg "success", or a code of ErrorCode with data null. */
function checkShape(envelope, what) {
  if (envelope.code === 0) {
    assert.equal(envelope.msg, "success", what);
  } else {
    assert.ok(errorCodes.has(envelope.code), `${what}: code ${envelope.code} is not in ErrorCode`);
    assert.equal(envelope.data, null, what);
  }
}

test("handle gives every code of ErrorCode but 500, and only codes of EnvelopeCode", () => {
  const s = new Service({ seed: 1, maxOrders: 1 });
  const created = s.handle("POST", "/api/order/create", order);
  assert.equal(created.code, 0);
  const seen = new Set();
  for (const [code, [method, path, body, headers]] of Object.entries(refusals(created.data.orderId))) {
    const answer = s.handle(method, path, body, headers);
    assert.equal(answer.code, Number(code), answer.msg);
    checkShape(answer, `${method} ${path.slice(0, 40)}`);
    seen.add(answer.code);
  }
  s.free();
  const freed = s.handle("GET", "/api/nowhere");
  checkShape(freed, "after free()");
  seen.add(freed.code);
  // 500 is a fault inside the module (a trap, a re-entrant call): no request reaches one.
  assert.deepEqual(sorted(seen), sorted(errorCodes).filter((c) => c !== 500));
});

test("createFetch's responses carry the same codes, each in ErrorCode", async () => {
  const service = new Service({ seed: 2, maxOrders: 1 });
  const api = createFetch({ service, warn: false });
  const created = await (await api("/api/order/create", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(order) })).json();
  const seen = new Set();
  for (const [code, [method, path, body, headers]] of Object.entries(refusals(created.data.orderId))) {
    const init = { method, headers: new Headers(headers ?? {}) };
    if (body !== undefined && body !== null) init.body = typeof body === "string" ? body : JSON.stringify(body);
    if (init.body && !init.headers.has("content-type")) init.headers.set("content-type", "application/json");
    const answer = await (await api(path, init)).json();
    assert.equal(answer.code, Number(code), answer.msg);
    checkShape(answer, `${method} ${path.slice(0, 40)}`);
    seen.add(answer.code);
  }
  service.free();
  const freed = await (await api("/api/nowhere")).json();
  checkShape(freed, "after free()");
  seen.add(freed.code);
  assert.deepEqual(sorted(seen), sorted(errorCodes).filter((c) => c !== 500));
});

test("no request of a wide sweep gives a code outside EnvelopeCode, or data with an error", () => {
  const s = new Service({ seed: 3, failureRate: 0.5 });
  const orderId = s.handle("POST", "/api/order/create", order).data.orderId;
  const paths = [
    "/api/order/create", `/api/order/${orderId}`, `/api/order/${orderId}/pay`, `/api/order/delete/${orderId}`,
    "/api/payment/pay", "/api/payment/PAY-ZZZZZZZZ", "/api/payment/refund/PAY-ZZZZZZZZ", "/api/test/order/batch?count=3",
    "/api/test/order/batch?count=0", "/api/ordr/create", "/", "/api/order/ORD-BAD",
  ];
  const bodies = [undefined, "", "{", "[]", order, { orderId, amount: 25.5, paymentMethod: "CARD" }, { orderId, amount: -1, paymentMethod: "X" }];
  let answers = 0;
  for (const method of ["GET", "POST", "PUT", "DELETE", "HEAD", "OPTIONS", "BREW"]) {
    for (const path of paths) {
      for (const body of bodies) {
        checkShape(s.handle(method, path, body), `${method} ${path} ${JSON.stringify(body)}`);
        answers++;
      }
    }
  }
  assert.equal(answers, 7 * paths.length * bodies.length);
});
