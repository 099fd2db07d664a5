// The run journal (src/js/run_journal.js) through the built package:
// every way in (handle, request, createFetch) and the calls that change
// a service outside a request land in runOf(service) in order, stamped
// with the service's time; the bound and a restored service refuse an
// export rather than give a wrong one; resumeRun carries a run across a
// snapshot, and takes only plain data of run()'s shape; what run() gives
// and what the caller gave are copies, never the journal's own.
import assert from "node:assert/strict";
import { test } from "node:test";

import { Service } from "../../pkg/index.js";
import { createFetch } from "../../pkg/fetch.js";
import { runOf } from "../../pkg/service.js";
import { JOURNAL_BOUND } from "../../pkg/run_journal.js";

const START = Date.UTC(2026, 0, 1);
const JSON_TYPE = { "Content-Type": "application/json" };

test("each way in and each call is a step, with the service's time and what was answered", async () => {
  const api = createFetch({ service: { seed: 7, failureRate: 0, virtualTime: START, latency: { order: { baseMs: 5, spreadMs: 0, tailChance: 0 } } } });
  const s = api.service;
  const created = await api("/api/order/create", { method: "POST", headers: JSON_TYPE, body: JSON.stringify({ userId: "u1", price: 20 }) });
  const order = (await created.json()).data;
  s.setScenario("insufficient-funds");
  s.handle("POST", "/api/payment/pay", { orderId: order.orderId, amount: 20, paymentMethod: "CARD" }, JSON_TYPE);
  s.setScenario(null);
  s.forceNext("failure", 2);
  s.advance(1000);
  const paid = s.request("POST", "/api/payment/pay", JSON.stringify({ orderId: order.orderId, amount: 20, paymentMethod: "CARD", cardNumber: "4000 0025 0000 3155" }), { "content-type": "application/json", "Idempotency-Key": "k-1" });
  s.completeChallenge(paid.body.data.paymentId, "abandon");

  const run = runOf(s);
  assert.deepEqual(run.options, { seed: 7, failureRate: 0, virtualTime: START, latency: { order: { baseMs: 5, spreadMs: 0, tailChance: 0 } } });
  assert.equal(run.clock, "virtual");
  assert.deepEqual(run.steps.map((x) => x.kind), ["request", "scenario", "request", "scenario", "force", "advance", "request", "challenge"]);
  const [create, scenario, declined, cleared, force, advance, pay, challenge] = run.steps;
  assert.equal(create.at, START);
  assert.equal(create.method, "POST");
  assert.equal(create.path, "/api/order/create");
  assert.equal(create.headers["content-type"], "application/json");
  assert.equal(create.body, JSON.stringify({ userId: "u1", price: 20 }));
  assert.equal(create.answer.status, 200);
  assert.equal(JSON.parse(create.answer.body).data.orderId, order.orderId);
  // The order's 5 ms of simulated latency moved the virtual clock before the next step.
  assert.equal(scenario.at, START + 5);
  assert.equal(scenario.scenario, "insufficient-funds");
  assert.deepEqual(JSON.parse(declined.answer.body), { code: -1, msg: "Third party payment failed", data: null });
  assert.equal(declined.answer.status, 200);
  assert.equal(cleared.scenario, null);
  assert.deepEqual([force.outcome, force.count], ["failure", 2]);
  assert.equal(advance.ms, 1000);
  assert.equal(pay.at, advance.at + 1000);
  assert.equal(pay.headers["idempotency-key"], "k-1");
  assert.equal(JSON.parse(pay.answer.body).data.status, "REQUIRES_ACTION");
  assert.deepEqual([challenge.paymentId, challenge.outcome], [paid.body.data.paymentId, "abandon"]);
  assert.equal(typeof pay.answer.headers["x-b3-traceid"], "string");
  s.free();
});

test("a scenario document or an option object is recorded as it was when given, whatever the caller does to it after", () => {
  const latency = { order: { baseMs: 1 } };
  const rules = { rules: [{ then: { kind: "decline", code: "insufficient_funds" } }] };
  const s = new Service({ seed: 1, latency });
  s.setScenario(rules);
  latency.order.baseMs = 9;
  rules.rules[0].then.code = "expired_card";
  const run = runOf(s);
  assert.deepEqual(run.options.latency, { order: { baseMs: 1 } });
  assert.equal(run.steps[0].scenario.rules[0].then.code, "insufficient_funds");
  s.free();
});

test("a wall-clock run is stamped with the wall's time, the one the core was handed", () => {
  const s = new Service({ seed: 1 });
  const before = Date.now();
  const reply = s.request("POST", "/api/order/create", '{"userId":"u","price":1}', JSON_TYPE);
  const run = runOf(s);
  assert.equal(run.clock, "wall");
  const [step] = run.steps;
  assert.ok(step.at >= before && step.at <= Date.now());
  assert.equal(reply.body.data.createdAt, step.at, "the order's time is the step's");
  s.free();
});

test("past the bound the run is refused by name, and a bad call is no step", () => {
  const s = new Service({ seed: 1 });
  assert.throws(() => s.advance("1"), TypeError);
  assert.equal(s.run().steps.length, 0);
  for (let i = 0; i <= JOURNAL_BOUND; i++) s.handle("GET", "/api/order/ORD-NONE");
  assert.equal(s.run().steps.length, JOURNAL_BOUND);
  assert.throws(() => runOf(s), (e) => e instanceof RangeError && e.message.includes(`more than ${JOURNAL_BOUND} steps`));
  s.free();
});

test("a restored service refuses until resumeRun gives it the run it was saved with", () => {
  const s = new Service({ seed: 3, virtualTime: START });
  s.request("POST", "/api/order/create", '{"userId":"u","price":1}', JSON_TYPE);
  const saved = { snapshot: s.snapshot(), run: JSON.parse(JSON.stringify(s.run())) };
  const restored = Service.restore(saved.snapshot);
  assert.throws(() => runOf(restored), /made by Service\.restore/);
  // Another service's run is refused at once, naming both seeds.
  const other = new Service({ seed: 4, virtualTime: START });
  assert.throws(() => restored.resumeRun(other.run()), (e) => e instanceof TypeError && /seed 4 on a virtual clock, and this one has seed 3 on a virtual clock/.test(e.message));
  other.free();
  restored.resumeRun(saved.run);
  restored.advance(10);
  const run = runOf(restored);
  assert.deepEqual(run.steps.map((x) => x.kind), ["request", "advance"]);
  assert.deepEqual(run.options, saved.run.options);
  assert.throws(() => restored.resumeRun(saved.run), /just made by Service\.restore/);
  // The run of a restore that was not given its run starts at the snapshot: it stays refused.
  const bare = Service.restore(saved.snapshot);
  const again = Service.restore(bare.snapshot());
  again.resumeRun(bare.run());
  assert.throws(() => runOf(again), /made by Service\.restore/);
  bare.free();
  again.free();
  s.free();
  restored.free();
});

test("resumeRun takes plain data of run()'s shape only: anything else is a TypeError naming it, and the service can still be resumed", () => {
  const s = new Service({ seed: 3, virtualTime: START });
  s.request("POST", "/api/order/create", '{"userId":"u","price":1}', JSON_TYPE);
  s.advance(5);
  const good = s.run();
  const restored = Service.restore(s.snapshot());
  const withSteps = (steps) => ({ ...good, steps });
  const cyclic = { kind: "advance", at: START, ms: 1 };
  cyclic.self = cyclic;
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  const refused = [
    [withSteps([null]), "run.steps[0]: expected a step such as { kind: \"advance\", at: 0, ms: 10 }, got null"],
    [withSteps([{ kind: "wait", at: START }]), "run.steps[0].kind: expected one of request, advance, scenario, force, challenge, got \"wait\""],
    [withSteps([good.steps[0], { ...good.steps[0], path: 3 }]), "run.steps[1].path: expected a string, got number"],
    [withSteps([{ ...good.steps[0], headers: { "x-a": 1 } }]), 'run.steps[0].headers["x-a"]: expected a string, got number'],
    [withSteps([{ ...good.steps[0], answer: { ...good.steps[0].answer, status: "200" } }]), "run.steps[0].answer.status: expected a number, got string"],
    [withSteps([{ ...good.steps[1], ms: null }]), "run.steps[0].ms: expected a number, got null"],
    [withSteps([{ kind: "advance", get at() { throw new Error("no"); }, ms: 1 }]), "run: expected plain data as service.run() gives it"],
    [withSteps([cyclic]), "run: expected plain data as service.run() gives it"],
    [withSteps(proxy), "run: expected plain data as service.run() gives it"],
    [{ ...good, options: proxy }, "run: expected plain data as service.run() gives it"],
  ];
  for (const [run, message] of refused) assert.throws(() => restored.resumeRun(run), { name: "TypeError", message });
  // Nothing of that reached the journal: the service still refuses, and still takes its run.
  assert.throws(() => runOf(restored), (e) => e.reason === "restored");
  // A Proxy that answers otherwise at each read is read once: the journal keeps that reading.
  let reads = 0;
  const shifting = new Proxy(good, { get: (target, key) => (key === "lost" ? reads++ : target[key]) });
  restored.resumeRun(shifting);
  assert.equal(runOf(restored).lost, 0);
  assert.equal(restored.exportTest("vitest"), s.exportTest("vitest"));
  s.free();
  restored.free();
});

test("run() is a copy of its own, and so is each answer: changing what they gave changes neither the journal nor the next copy", () => {
  const rules = { rules: [{ then: { kind: "decline", code: "insufficient_funds" } }] };
  const s = new Service({ seed: 1, virtualTime: START, latency: { order: { baseMs: 1 } } });
  s.setScenario(rules);
  const answer = s.request("POST", "/api/order/create", '{"userId":"u","price":1}', JSON_TYPE);
  answer.headers["content-type"] = "text/html";
  assert.equal(s.run().steps[1].answer.headers["content-type"], "application/json", "the caller's answer is not the journal's");
  const given = s.run();
  given.steps[0].scenario.rules[0].then.code = "bogus";
  given.options.latency.order.baseMs = 7;
  given.steps[1].answer.headers["content-type"] = "text/plain";
  const again = s.run();
  assert.equal(again.steps[0].scenario.rules[0].then.code, "insufficient_funds");
  assert.equal(again.options.latency.order.baseMs, 1);
  assert.equal(again.steps[1].answer.headers["content-type"], "application/json");
  assert.doesNotThrow(() => s.exportTest("vitest"));
  // A resumed run's steps are copies too.
  const restored = Service.restore(s.snapshot());
  restored.resumeRun(again);
  restored.run().steps[0].scenario.rules[0].then.code = "bogus";
  assert.equal(runOf(restored).steps[0].scenario.rules[0].then.code, "insufficient_funds");
  s.free();
  restored.free();
});

test("the options are read once: the journal records what the service was made with, whatever a getter answers next", () => {
  let reads = 0;
  const options = {
    seed: 11,
    get failureRate() {
      reads += 1;
      return reads === 1 ? 0 : 1;
    },
    virtualTime: START,
  };
  const s = new Service(options);
  assert.equal(reads, 1, "failureRate was read once");
  assert.equal(s.settings.failureRate, 0);
  assert.equal(s.run().options.failureRate, 0, "the journal has the value the service was made with");
  s.free();
});
