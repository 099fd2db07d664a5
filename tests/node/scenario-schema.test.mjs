// The shipped JSON Schema of a scenario (orderpay/scenario.schema.json)
// and the core's own reading of a document give the same verdict, on a
// corpus of good documents (the presets, every kind and matcher) and of
// damaged ones (hand-picked, then seeded random damage of the good ones).
// A refusal names the JSON path of what is wrong. ajv from npm, pinned.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import Ajv2020 from "ajv/dist/2020.js";

import { presets, Service } from "../../pkg/index.js";
import { examples } from "../docs.mjs";

const schema = JSON.parse(readFileSync(new URL("../../pkg/scenario.schema.json", import.meta.url), "utf8"));
const validate = new Ajv2020({ allErrors: false, strict: true }).compile(schema);

/** The core's verdict: null when it takes the text, else its message. */
function core(text) {
  const service = new Service({ seed: 1 });
  try {
    service.setScenario(text);
    return null;
  } catch (error) {
    assert.ok(error instanceof TypeError || error instanceof RangeError, String(error));
    return error.message;
  } finally {
    service.free();
  }
}

const rule = (when, then) => ({ when, then });
const good = [
  ...Object.values(presets),
  ...["scenario-document", "scenario-delivery-document"].map((kind) => JSON.parse(examples(kind)[0])),
  { rules: [] },
  {
    name: "every matcher",
    rules: [
      rule(
        {
          route: "/api/payment/pay", method: "POST", userId: "u-1", paymentMethod: "CARD", amount: 13.37,
          orderId: "ORD-AAAAAAAA", header: { name: "x-test-case", value: "slow" }, nth: 3, every: 2,
          calls: { from: 2, to: 4 }, from: 1700000000000, until: 1700000060000, forMs: 30000, probability: 0.1, times: 5,
        },
        { kind: "decline", code: "insufficient_funds" },
      ),
    ],
  },
  {
    rules: [
      rule({ route: "order" }, { kind: "http", status: 503, retryAfter: 2 }),
      rule({ route: "/api/order/{orderId}" }, { kind: "delay", ms: 250 }),
      rule({ calls: { from: 1 } }, { kind: "timeout", afterMs: 0 }),
      rule({ from: -5 }, { kind: "processor_error", status: 599 }),
      rule({}, { kind: "network", fault: "short" }),
      rule(undefined, { kind: "network", fault: "dribble", phase: "response", ms: 3600000 }),
      { name: "x".repeat(64), then: { kind: "network", fault: "hang", phase: "request" } },
    ],
  },
  { rules: Array.from({ length: 100 }, () => ({ then: { kind: "decline" } })) },
  // The kinds whose payment changes later, bare and with every key.
  {
    rules: [
      rule({ nth: 1 }, { kind: "challenge" }),
      rule({ amount: 5 }, { kind: "challenge", outcome: "pass" }),
      rule({ userId: "u-2" }, { kind: "challenge", outcome: "abandon", afterMs: 604800000, code: "do_not_honor" }),
      rule({ probability: 0.5 }, { kind: "pending" }),
      rule({}, { kind: "pending", forMs: 0, outcome: "pass" }),
      rule({ every: 3 }, { kind: "pending", forMs: 30000, outcome: "fail", code: "insufficient_funds" }),
      { name: "late", then: { kind: "reversal" } },
      rule({ times: 1 }, { kind: "reversal", afterMs: 60000, code: "fraudulent" }),
    ],
  },
  // The delivery kinds, bare and with every key, and the matchers a delivery rule takes.
  {
    rules: [
      rule({ event: "payment.succeeded" }, { kind: "duplicate" }),
      rule({ event: "order.*", nth: 2 }, { kind: "duplicate", times: 10 }),
      rule({ userId: "u-1", orderId: "ORD-AAAAAAAA", paymentMethod: "CARD", amount: 5 }, { kind: "late" }),
      rule({ event: "payment.*", probability: 0.5, times: 3 }, { kind: "late", ms: 604800000 }),
      rule(undefined, { kind: "reorder" }),
      rule({ every: 2, calls: { from: 1, to: 9 }, from: 0, until: 1, forMs: 5 }, { kind: "reorder", hold: 100, order: "shuffle" }),
      rule({ event: "order.deleted" }, { kind: "reorder", order: "reverse" }),
      rule({}, { kind: "stale_timestamp" }),
      rule({ event: "payment.refunded" }, { kind: "stale_timestamp", ageS: 301 }),
      rule({ event: "payment.failed" }, { kind: "tampered_body" }),
      { name: "bad signature", when: { event: "payment.pending" }, then: { kind: "wrong_signature" } },
      rule({ event: "payment.requires_action" }, { kind: "drop" }),
      rule({ event: "order.created" }, { kind: "drop", attempts: 10 }),
      rule({ event: "order.paid" }, { kind: "drop", attempts: 1 }),
    ],
  },
];

const bad = [
  [{}, "rules: missing"],
  [{ rules: [], name: 7 }, "name"],
  [{ rules: [{ then: { kind: "http" } }], extra: true }, 'unknown key "extra"'],
  [{ rules: [{ when: { until: "soon" }, then: { kind: "http" } }] }, "rules[0].when.until"],
  [{ rules: [{ when: { rout: "/x" }, then: { kind: "http" } }] }, "rules[0].when"],
  [{ rules: [{ when: { route: "/api/order/ORD-AAAAAAAA" }, then: { kind: "http" } }] }, "rules[0].when.route"],
  [{ rules: [{ when: { method: "PUT" }, then: { kind: "http" } }] }, "rules[0].when.method"],
  [{ rules: [{ when: { paymentMethod: "card" }, then: { kind: "http" } }] }, "rules[0].when.paymentMethod"],
  [{ rules: [{ when: { nth: 0 }, then: { kind: "http" } }] }, "rules[0].when.nth"],
  [{ rules: [{ when: { every: 1.5 }, then: { kind: "http" } }] }, "rules[0].when.every"],
  [{ rules: [{ when: { probability: -0.1 }, then: { kind: "http" } }] }, "rules[0].when.probability"],
  [{ rules: [{ when: { header: { name: "a b", value: "x" } }, then: { kind: "http" } }] }, "rules[0].when.header.name"],
  [{ rules: [{ when: { header: { name: "a" } }, then: { kind: "http" } }] }, "rules[0].when.header"],
  [{ rules: [{ when: { userId: "u".repeat(257) }, then: { kind: "http" } }] }, "rules[0].when.userId"],
  [{ rules: [{ when: { calls: { from: 0 } }, then: { kind: "http" } }] }, "rules[0].when.calls.from"],
  [{ rules: [{ when: { forMs: 0 }, then: { kind: "http" } }] }, "rules[0].when.forMs"],
  [{ rules: [{ when: {} }] }, "rules[0]"],
  [{ rules: [{ then: {} }] }, "rules[0].then"],
  [{ rules: [{ then: { kind: "explode" } }] }, "rules[0].then.kind"],
  [{ rules: [{ then: { kind: "http", status: 500 } }] }, "rules[0].then.status"],
  [{ rules: [{ then: { kind: "http", ms: 5 } }] }, 'rules[0].then: unknown key "ms"'],
  [{ rules: [{ then: { kind: "decline", code: "nope" } }] }, "rules[0].then.code"],
  [{ rules: [{ then: { kind: "processor_error", status: 404 } }] }, "rules[0].then.status"],
  [{ rules: [{ then: { kind: "delay", ms: 3600001 } }] }, "rules[0].then.ms"],
  [{ rules: [{ then: { kind: "network" } }] }, "rules[0].then"],
  [{ rules: [{ then: { kind: "network", fault: "dribble", phase: "request" } }] }, "rules[0].then.phase"],
  [{ rules: [{ name: "n".repeat(65), then: { kind: "delay" } }] }, "rules[0].name"],
  [{ rules: Array.from({ length: 101 }, () => ({ then: { kind: "decline" } })) }, "rules"],
  [{ rules: [{ then: { kind: "challenge", afterMs: 5 } }] }, "rules[0].then"],
  [{ rules: [{ then: { kind: "challenge", outcome: "maybe" } }] }, "rules[0].then.outcome"],
  [{ rules: [{ then: { kind: "challenge", outcome: "pass", afterMs: 604800001 } }] }, "rules[0].then.afterMs"],
  [{ rules: [{ then: { kind: "challenge", code: "nope" } }] }, "rules[0].then.code"],
  [{ rules: [{ then: { kind: "challenge", forMs: 5 } }] }, 'rules[0].then: unknown key "forMs"'],
  [{ rules: [{ then: { kind: "pending", forMs: -1 } }] }, "rules[0].then.forMs"],
  [{ rules: [{ then: { kind: "pending", outcome: "abandon" } }] }, "rules[0].then.outcome"],
  [{ rules: [{ then: { kind: "pending", code: "lost_card" } }] }, "rules[0].then"],
  [{ rules: [{ then: { kind: "pending", outcome: "pass", code: "lost_card" } }] }, "rules[0].then"],
  [{ rules: [{ then: { kind: "reversal", afterMs: 1.5 } }] }, "rules[0].then.afterMs"],
  [{ rules: [{ then: { kind: "reversal", reason: "disputed" } }] }, 'rules[0].then: unknown key "reason"'],
  [{ rules: [{ then: { kind: "reversal", outcome: "fail" } }] }, 'rules[0].then: unknown key "outcome"'],
  [{ rules: [{ then: { kind: "duplicate", times: 1 } }] }, "rules[0].then.times"],
  [{ rules: [{ then: { kind: "duplicate", times: 11 } }] }, "rules[0].then.times"],
  [{ rules: [{ then: { kind: "late", ms: 0 } }] }, "rules[0].then.ms"],
  [{ rules: [{ then: { kind: "late", afterMs: 5 } }] }, 'rules[0].then: unknown key "afterMs"'],
  [{ rules: [{ then: { kind: "reorder", hold: 1 } }] }, "rules[0].then.hold"],
  [{ rules: [{ then: { kind: "reorder", order: "random" } }] }, "rules[0].then.order"],
  [{ rules: [{ then: { kind: "reorder", order: "shuffle", seed: 1 } }] }, 'rules[0].then: unknown key "seed"'],
  [{ rules: [{ then: { kind: "stale_timestamp", ageS: 0 } }] }, "rules[0].then.ageS"],
  [{ rules: [{ then: { kind: "stale_timestamp", ageS: 604801 } }] }, "rules[0].then.ageS"],
  [{ rules: [{ then: { kind: "tampered_body", ms: 1 } }] }, 'rules[0].then: unknown key "ms"'],
  [{ rules: [{ then: { kind: "wrong_signature", secret: "x" } }] }, 'rules[0].then: unknown key "secret"'],
  [{ rules: [{ then: { kind: "drop", attempts: 0 } }] }, "rules[0].then.attempts"],
  [{ rules: [{ then: { kind: "drop", attempts: 11 } }] }, "rules[0].then.attempts"],
  [{ rules: [{ when: { event: "payment.paid" }, then: { kind: "drop" } }] }, "rules[0].when.event"],
  [{ rules: [{ when: { event: "order.paid" }, then: { kind: "delay" } }] }, "rules[0].when.event: matches an event"],
  [{ rules: [{ when: { route: "order" }, then: { kind: "duplicate" } }] }, "rules[0].when.route: matches a request"],
  [{ rules: [{ when: { method: "GET" }, then: { kind: "late" } }] }, "rules[0].when.method: matches a request"],
  [{ rules: [{ when: { header: { name: "x", value: "y" } }, then: { kind: "drop" } }] }, "rules[0].when.header: matches a request"],
  [[], ""],
  ["a string", ""],
];

test("the schema and the core take every good document", () => {
  for (const doc of good) {
    const text = JSON.stringify(doc);
    assert.equal(core(text), null, text);
    assert.ok(validate(doc), `${text}\n${JSON.stringify(validate.errors)}`);
  }
});

test("the schema and the core refuse every damaged document, and the core names its path", () => {
  for (const [doc, path] of bad) {
    const text = JSON.stringify(doc);
    const refused = core(text);
    assert.ok(refused?.startsWith(`scenario: ${path}`), `${text}\n  core: ${refused}\n  want: scenario: ${path}`);
    assert.equal(validate(doc), false, text);
  }
});

test("the checks beyond the schema, which it says it leaves to the core, are the core's", () => {
  for (const [doc, path] of [
    [{ rules: [{ when: { from: 5, until: 5 }, then: { kind: "delay" } }] }, "rules[0].when: until"],
    [{ rules: [{ when: { calls: { from: 3, to: 2 } }, then: { kind: "delay" } }] }, "rules[0].when.calls: to"],
  ]) {
    assert.ok(validate(doc));
    assert.ok(core(JSON.stringify(doc))?.startsWith(`scenario: ${path}`));
  }
  assert.match(core('{"rules":[],"rules":[]}'), /^scenario: duplicate key "rules"/);
});

/** A seeded generator (mulberry32). */
function random(seed) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WEIRD = [null, true, -1, 0, 0.5, 1.5, 2 ** 32 + 1, 1e15, "", "x", "GET", "order", "reset", [], {}, { kind: "delay" }];

/** Every place in a value: [parent, key] pairs. */
function places(value, out = []) {
  if (value && typeof value === "object") {
    for (const key of Object.keys(value)) {
      out.push([value, key]);
      places(value[key], out);
    }
  }
  return out;
}

/** One random damage: a value replaced, a key dropped, or an unknown key added. */
function damage(doc, next) {
  const copy = structuredClone(doc);
  const all = places(copy);
  if (all.length === 0) return copy;
  const [parent, key] = all[Math.floor(next() * all.length)];
  const pick = next();
  if (pick < 0.6) parent[key] = WEIRD[Math.floor(next() * WEIRD.length)];
  else if (pick < 0.8 && !Array.isArray(parent)) delete parent[key];
  else if (!Array.isArray(parent)) parent.unknownKey = 1;
  return copy;
}

/** Whether a rule breaks a check the schema leaves to the core (see its description). */
function beyondSchema(doc) {
  const whens = Array.isArray(doc?.rules) ? doc.rules.map((r) => r?.when) : [];
  return whens.some((w) => {
    const number = (v) => typeof v === "number";
    const { from, until, calls } = w ?? {};
    return (number(from) && number(until) && until <= from) || (number(calls?.from) && number(calls?.to) && calls.to < calls.from);
  });
}

test("on 3,000 seeded random damages of the good documents, the schema and the core agree", () => {
  const next = random(20);
  let refused = 0;
  for (let i = 0; i < 3000; i++) {
    const doc = damage(good[i % good.length], next);
    if (beyondSchema(doc)) continue;
    const text = JSON.stringify(doc);
    const verdict = core(text);
    const valid = validate(doc);
    assert.equal(verdict === null, valid, `${text}\n  core: ${verdict}\n  schema: ${JSON.stringify(validate.errors)}`);
    if (verdict !== null) {
      refused += 1;
      assert.match(verdict, /^scenario: /);
    }
  }
  assert.ok(refused > 1000, `only ${refused} damaged documents were refused`);
});
