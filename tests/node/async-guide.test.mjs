// docs/async-payments.md held to the package: its first example runs as
// written in a throwaway app, and its table of test cards is the core's
// table, each row paid with and followed to its end on a virtual clock.
import assert from "node:assert/strict";
import { before, test } from "node:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";

import { root } from "../docs.mjs";
import { examples, makeConsumer } from "./consumer.mjs";
import { Service } from "../../pkg/index.js";

let app;
before(() => {
  app = makeConsumer();
});

test("the guide's first example runs as written: a challenge, then SUCCESS", () => {
  const [example] = examples("async-first");
  assert.ok(example, "docs/async-payments.md has a first example");
  const out = app.run("async-first.mjs", example).trim().split("\n");
  assert.match(out[0], /^REQUIRES_ACTION \/api\/payment\/PAY-[A-Z0-9]{8}\/challenge$/);
  assert.equal(out[1], "SUCCESS");
});

/** The guide's table of test cards: [{number, outcome, code}], the number without its spaces. */
function tableRows() {
  const text = readFileSync(join(root, "docs/async-payments.md"), "utf8");
  const start = text.indexOf("## The test cards");
  const section = text.slice(start, text.indexOf("\n## ", start + 1));
  return section
    .split("\n")
    .filter((line) => /^\| [\d ]{16,} \|/.test(line))
    .map((line) => {
      const [number, outcome, code] = line.split("|").slice(1, -1).map((cell) => cell.trim());
      return { number: number.replaceAll(" ", ""), outcome, code: code.replaceAll("`", "") || null };
    });
}

const DAY = 24 * 60 * 60 * 1000;

/** Pays with one card on a fresh virtual clock and follows the payment: what the row must say. */
function follow(number) {
  const s = new Service({ seed: 5, failureRate: 0, virtualTime: Date.UTC(2026, 0, 1) });
  const { orderId } = s.handle("POST", "/api/order/create", { userId: "u-1", price: 10 }).data;
  const answer = s.request("POST", "/api/payment/pay", { orderId, amount: 10, paymentMethod: "CARD", cardNumber: number });
  const { code, msg, data } = answer.body;
  if (code !== 0) {
    const { outcome } = s.logs().findLast((r) => r.stage === "service");
    return { first: msg, rule: outcome.rule, card: outcome.card, code: outcome.declineCode ?? null };
  }
  const get = () => s.handle("GET", `/api/payment/${data.paymentId}`).data;
  const at = s.now;
  if (data.status === "REQUIRES_ACTION") {
    s.advance(DAY);
    const waiting = get().status === "REQUIRES_ACTION";
    s.completeChallenge(data.paymentId, "pass");
    const end = get();
    return { first: "REQUIRES_ACTION", waiting, last: end.status, code: end.failureCode ?? null };
  }
  const next = s.nextDueAt;
  s.advance(DAY);
  const end = get();
  return { first: data.status, last: end.status, afterMs: next == null ? null : next - at, code: end.failureCode ?? null, reason: end.failureReason };
}

/** What each wording of the table's Outcome column means, as follow() reports it. */
const OUTCOMES = [
  [/^succeeds$/, () => ({ first: "SUCCESS", last: "SUCCESS", afterMs: null, code: null })],
  [/^declined$/, () => ({ first: "Third party payment failed", rule: "card" })],
  [/^challenge, waits for the buyer$/, () => ({ first: "REQUIRES_ACTION", waiting: true, last: "SUCCESS", code: null })],
  [/^challenge; once passed, declined$/, () => ({ first: "REQUIRES_ACTION", waiting: true, last: "FAILED" })],
  [/^succeeds, then reversed after (\d+) s, "(.+)"$/, ([, s, reason]) => ({ first: "SUCCESS", last: "FAILED", afterMs: s * 1000, reason })],
  [/^pending (\d+) s, then succeeds/, ([, s]) => ({ first: "PENDING", last: "SUCCESS", afterMs: s * 1000, code: null })],
  [/^pending (\d+) s, then declined/, ([, s]) => ({ first: "PENDING", last: "FAILED", afterMs: s * 1000 })],
];

test("the guide's test cards take the outcome its table says", () => {
  const rows = tableRows();
  assert.ok(rows.length >= 17, `${rows.length} cards read from the table`);
  for (const row of rows) {
    const got = follow(row.number);
    const match = OUTCOMES.map(([pattern, expect]) => [pattern.exec(row.outcome), expect]).find(([m]) => m);
    assert.ok(match, `${row.number}: the table's outcome "${row.outcome}" is none the test knows`);
    const expected = { ...match[1](match[0]), code: row.code };
    for (const [key, value] of Object.entries(expected)) {
      assert.deepEqual(got[key], value, `${row.number} (${row.outcome}): ${key}`);
    }
  }
});

test("a number the table does not list is refused, naming cardNumber", () => {
  const listed = new Set(tableRows().map((row) => row.number));
  const s = new Service({ seed: 5, failureRate: 0 });
  const { orderId } = s.handle("POST", "/api/order/create", { userId: "u-1", price: 10 }).data;
  for (const number of ["4111111111111111", "4000000000000000", "1234"]) {
    assert.ok(!listed.has(number));
    const answer = s.request("POST", "/api/payment/pay", { orderId, amount: 10, paymentMethod: "CARD", cardNumber: number });
    assert.equal(answer.status, 400, number);
    assert.match(answer.body.msg, /cardNumber/, number);
  }
});

test("the guide's log record example prints the change's record, in the pay's trace", () => {
  const [example] = examples("async-record");
  assert.ok(example, "docs/async-payments.md has a log record example");
  const [record, sameTrace] = app.run("async-record.mjs", example).trim().split("\n");
  const change = JSON.parse(record);
  assert.match(change.paymentId, /^PAY-[A-Z0-9]{8}$/);
  assert.deepEqual({ ...change, paymentId: undefined }, {
    paymentId: undefined, from: "PENDING", to: "FAILED", kind: "pending",
    cause: { rule: "card", card: "4000084000000022" }, failureCode: "insufficient_funds",
  });
  assert.equal(sameTrace, "true true");
});
