// docs/async-payments.md held to the package: its first example runs as
// written in a throwaway app, and its table of test cards is the core's
// table, each row paid with and followed to its end on a virtual clock.
// docs/api.md's failureReason texts are those the core writes, on every
// path of every card and rule; the record types fit the records written
// on those paths, under strict TypeScript.
import assert from "node:assert/strict";
import { before, test } from "node:test";
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import { anchors, root } from "../docs.mjs";
import { examples, makeConsumer } from "./consumer.mjs";
import { Service } from "../../pkg/index.js";
import { rawOf } from "../../pkg/service.js";

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

/** A section of a document, from its heading to the next of the same level. */
function section(file, heading) {
  const text = readFileSync(join(root, file), "utf8");
  const start = text.indexOf(`\n${heading}\n`);
  assert.ok(start >= 0, `${file} has ${heading}`);
  const level = heading.split(" ")[0];
  const end = text.indexOf(`\n${level} `, start + 1);
  return text.slice(start, end < 0 ? undefined : end);
}

/** The guide's table of test cards: [{number, outcome, code, reason}], the number without its spaces. */
function tableRows() {
  return section("docs/async-payments.md", "## The test cards")
    .split("\n")
    .filter((line) => /^\| [\d ]{16,} \|/.test(line))
    .map((line) => {
      const [number, outcome, code, reason] = line.split("|").slice(1, -1).map((cell) => cell.trim());
      return { number: number.replaceAll(" ", ""), outcome, code: code.replaceAll("`", "") || null, reason: reason.replaceAll('"', "") || null };
    });
}

const DAY = 24 * 60 * 60 * 1000;

/** Pays with one card on a fresh virtual clock and follows the payment: what the row must say. */
function follow(number) {
  const s = new Service({ seed: 5, failureRate: 0, virtualTime: Date.UTC(2026, 0, 1) });
  const { orderId } = s.handle("POST", "/api/order/create", { userId: "u-1", price: 10 }).data;
  const answer = s.request("POST", "/api/payment/pay", { orderId, amount: 10, paymentMethod: "CARD", cardNumber: number });
  const { code, msg, data } = answer.body;
  const header = answer.headers["x-orderpay-decline-code"] ?? null;
  if (code !== 0) {
    const { outcome } = s.logs().findLast((r) => r.stage === "service");
    return { first: msg, rule: outcome.rule, card: outcome.card, code: outcome.declineCode ?? null, header, reason: null };
  }
  const get = () => s.handle("GET", `/api/payment/${data.paymentId}`).data;
  const at = s.now;
  if (data.status === "REQUIRES_ACTION") {
    s.advance(DAY);
    const waiting = get().status === "REQUIRES_ACTION";
    s.completeChallenge(data.paymentId, "pass");
    const end = get();
    return { first: "REQUIRES_ACTION", waiting, last: end.status, code: end.failureCode ?? null, header, reason: end.failureReason ?? null };
  }
  const next = s.nextDueAt;
  s.advance(DAY);
  const end = get();
  return { first: data.status, last: end.status, afterMs: next == null ? null : next - at, code: end.failureCode ?? null, header, reason: end.failureReason ?? null };
}

/** What each wording of the table's Outcome column means, as follow() reports it. */
const OUTCOMES = [
  [/^succeeds$/, () => ({ first: "SUCCESS", last: "SUCCESS", afterMs: null, code: null })],
  [/^declined$/, () => ({ first: "Third party payment failed", rule: "card" })],
  [/^challenge, waits for the buyer$/, () => ({ first: "REQUIRES_ACTION", waiting: true, last: "SUCCESS", code: null })],
  [/^challenge; once passed, declined$/, () => ({ first: "REQUIRES_ACTION", waiting: true, last: "FAILED" })],
  [/^succeeds, then reversed after (\d+) s$/, ([, s]) => ({ first: "SUCCESS", last: "FAILED", afterMs: s * 1000 })],
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
    // A declined card's code is the pay's header; a later failure's, the payment's failureCode.
    const header = row.outcome === "declined" ? row.code : null;
    const expected = { ...match[1](match[0]), code: row.code, reason: row.reason, header };
    for (const [key, value] of Object.entries(expected)) {
      assert.deepEqual(got[key], value, `${row.number} (${row.outcome}): ${key}`);
    }
  }
});

test("a number the table does not list is refused, naming cardNumber and the table's place in the docs the package ships", () => {
  const listed = new Set(tableRows().map((row) => row.number));
  const s = new Service({ seed: 5, failureRate: 0 });
  const { orderId } = s.handle("POST", "/api/order/create", { userId: "u-1", price: 10 }).data;
  for (const number of ["4111111111111111", "4000000000000000", "1234"]) {
    assert.ok(!listed.has(number));
    const answer = s.request("POST", "/api/payment/pay", { orderId, amount: 10, paymentMethod: "CARD", cardNumber: number });
    assert.equal(answer.status, 400, number);
    assert.match(answer.body.msg, /^cardNumber: /, number);
    const [, file, anchor] = /\((docs\/[\w-]+\.md)#([\w-]+)\)/.exec(answer.body.msg) ?? [];
    assert.ok(file, `${answer.body.msg} names where the cards are`);
    const shipped = readFileSync(join(app.dir, "node_modules/orderpay", file), "utf8");
    assert.ok(anchors(shipped).has(anchor), `${file}#${anchor} is a heading of the shipped docs`);
    assert.ok(anchors("## The test cards\n").has(anchor), `${anchor}: the heading of the table read above`);
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

const OUTCOMES_OF_A_CHALLENGE = ["pass", "fail", "abandon"];

/**
 * Every path a payment can take, each on a fresh service on a virtual
 * clock: each test card of the table (a challenge card ended each way by
 * the buyer), each kind of rule that changes a payment later (a challenge
 * ended by its rule and by the buyer, each way; pending, each way; a
 * reversal), and the rules that fail a pay at once. Gives every log record
 * written on the way.
 */
function everyPath() {
  const records = [];
  /** Pays once on a fresh service; `then(service, payment)` ends what the pay began. */
  const walk = (options, extra, then = (s) => s.advance(DAY)) => {
    const s = new Service({ seed: 5, failureRate: 0, virtualTime: Date.UTC(2026, 0, 1), ...options });
    const { orderId } = s.handle("POST", "/api/order/create", { userId: "u-1", price: 10 }).data;
    const paid = s.handle("POST", "/api/payment/pay", { orderId, amount: 10, paymentMethod: "CARD", ...extra });
    then(s, paid.data);
    records.push(...s.logs());
  };
  const buyer = (outcome) => (s, payment) => s.completeChallenge(payment.paymentId, outcome);
  const rule = (then) => ({ scenario: { rules: [{ name: then.kind, when: { route: "/api/payment/pay" }, then }] } });
  for (const { number, outcome } of tableRows()) {
    if (outcome.startsWith("challenge")) for (const end of OUTCOMES_OF_A_CHALLENGE) walk({}, { cardNumber: number }, buyer(end));
    else walk({}, { cardNumber: number });
  }
  for (const end of OUTCOMES_OF_A_CHALLENGE) {
    walk(rule({ kind: "challenge", outcome: end, afterMs: 1000 }), {});
    walk(rule({ kind: "challenge" }), {}, buyer(end));
  }
  for (const end of ["pass", "fail"]) walk(rule({ kind: "pending", outcome: end }), {});
  walk(rule({ kind: "reversal" }), {});
  for (const then of [{ kind: "decline", code: "lost_card" }, { kind: "timeout" }, { kind: "processor_error" }, { kind: "http", status: 503 }, { kind: "delay", ms: 5 }]) {
    walk(rule(then), {});
  }
  records.push(...webhookAttempts());
  return records;
}

/**
 * Webhook attempts to a URL and to a handler, the first dropped by a
 * delivery rule and retried an hour on: the sender's protocol (takeDue,
 * reportAttempt) driven by hand on the raw core, as the JS sender drives it.
 */
function webhookAttempts() {
  const scenario = { rules: [{ name: "lost", when: { event: "order.created" }, then: { kind: "drop" } }] };
  const s = new Service({ seed: 5, failureRate: 0, virtualTime: Date.UTC(2026, 0, 1), scenario });
  const raw = rawOf(s);
  raw.addWebhook(JSON.stringify({ url: "http://127.0.0.1:9/hook" }));
  raw.addWebhook(JSON.stringify({ handler: true }));
  s.handle("POST", "/api/order/create", { userId: "u-1", price: 10 });
  for (let round = 0; round < 2; round++) {
    for (const a of JSON.parse(raw.takeDue(Date.now()))) raw.reportAttempt(a.delivery, a.n, a.drop ? 0 : 200, 3, a.drop ? "dropped" : "");
    s.advance(3_600_000);
  }
  const attempts = s.logs().filter((r) => r.stage === "webhook");
  assert.equal(attempts.length, 4, "two attempts to each endpoint");
  return attempts;
}

test("docs/api.md lists every failureReason the service writes, and no other", () => {
  const table = section("docs/api.md", "### `failureReason`").split("\n|---")[1];
  const listed = table
    .split("\n")
    .filter((line) => line.startsWith("| `"))
    .map((line) => /^\| `([^`]+)`/.exec(line)[1]);
  const written = new Set(everyPath().filter((r) => r.stage === "payment" && r.failureReason).map((r) => r.failureReason));
  assert.deepEqual([...listed].sort(), [...written].sort());
  assert.equal(listed.length, new Set(listed).size, "each text once");
});

test("the log record types fit the records the core writes on every path, both ways, under strict TypeScript", () => {
  const seen = new Set();
  const records = everyPath().filter((r) => {
    // One record of each shape: its stage, its keys and its cause's.
    const shape = JSON.stringify([r.stage, Object.keys(r), r.cause, r.outcome && Object.keys(r.outcome), r.outcome?.async, r.fault?.kind]);
    return !seen.has(shape) && seen.add(shape);
  });
  writeFileSync(
    join(app.dir, "check-records.ts"),
    `import type { ChallengeOutcome, LogRecord, PaymentChangeCause, PaymentChangeKind, PaymentChangePlanner, PaymentRecord } from "orderpay";
    // What the core wrote: a field the types lack, or one of another type, fails here.
    const records = ${JSON.stringify(records, null, 1)} as const satisfies readonly LogRecord[];
    // Each kind, cause and field the types name, the core wrote.
    type Written = (typeof records)[number];
    type Changes = Extract<Written, { stage: "payment" }>;
    type ByBuyer = Extract<Changes["cause"], { rule: "buyer" }>;
    type Keys<T> = T extends unknown ? keyof T : never;
    type None<T> = [T] extends [never] ? true : T;
    const unwritten: [
      None<Exclude<LogRecord["stage"], Written["stage"]>>,
      None<Exclude<PaymentChangeKind, Changes["kind"]>>,
      None<Exclude<PaymentChangeCause["rule"], Changes["cause"]["rule"]>>,
      None<Exclude<PaymentChangePlanner["rule"], ByBuyer["planned"]["rule"]>>,
      None<Exclude<ChallengeOutcome, ByBuyer["outcome"]>>,
      None<Exclude<keyof PaymentRecord, Keys<Changes>>>,
    ] = [true, true, true, true, true, true];
    const change: PaymentRecord | undefined = records.find((r): r is Changes => r.stage === "payment");
    void [unwritten, change];
    `,
  );
  const tsc = join(root, "tests/node_modules/typescript/bin/tsc");
  const result = (() => {
    try {
      return execFileSync(
        "node",
        [tsc, "--noEmit", "--strict", "--target", "es2022", "--module", "nodenext", "--moduleResolution", "nodenext",
          "--lib", "es2022,dom", "--skipLibCheck", "false", "check-records.ts"],
        { cwd: app.dir, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] },
      );
    } catch (error) {
      return `${error.stdout}${error.stderr}`;
    }
  })();
  assert.equal(result, "", "tsc --strict on the records");
  assert.ok(records.some((r) => r.stage === "payment" && r.cause.rule === "buyer"), "the walk wrote a buyer's change");
});

test("docs/testing-failures.md and docs/async-payments.md say the same of which declines send x-orderpay-decline-code", () => {
  const said = (file) => {
    const text = readFileSync(join(root, file), "utf8").replaceAll("(async-payments.md#", "(#");
    const start = text.indexOf("Which declines send `x-orderpay-decline-code`");
    assert.ok(start >= 0, `${file} says which declines send the header`);
    const end = "with no header.";
    return text.slice(start, text.indexOf(end, start) + end.length).replace(/\s+/g, " ");
  };
  assert.equal(said("docs/testing-failures.md"), said("docs/async-payments.md"));
});
