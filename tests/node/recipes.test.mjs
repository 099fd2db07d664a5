// The recipes of docs/testing-failures.md and docs/async-payments.md, each a node:test module, run as
// a user runs them: written into a throwaway app that installed the packed
// package, then `node --test FILE` there. Each must pass with at least one
// test and none failing; and each, with the feature it shows taken out of
// its text, must fail, so that its assertions are ones that can.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { execFile } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import { examples, makeConsumer } from "./consumer.mjs";

/**
 * Each recipe by name, with a change to its text that takes its feature
 * out (the recipe must then fail): [what to replace, by what].
 */
const RECIPES = [
  ["spinner", examples("recipe-spinner"), [', scenario: "slow-payments", delay: 0.2', ""]],
  ["retry", examples("recipe-retry"), ["retryAfter: 2", "retryAfter: 1"]],
  ["double-click", examples("recipe-double-click"), ['"Idempotency-Key": key', '"X-Not-A-Key": key']],
  ["outage", examples("recipe-outage"), ["forMs: 60_000", "forMs: 120_000"]],
  ["decline-reason", examples("recipe-decline-reason"), ["x-orderpay-decline-code", "x-no-such-header"]],
  ["24-hours", examples("recipe-24-hours"), ["service.advance(HOUR);", "service.advance(HOUR - 60_000);"]],
  // docs/async-payments.md
  ["async-challenge", examples("recipe-async-challenge"), ['then: { kind: "challenge" }', 'then: { kind: "delay", ms: 0 }']],
  ["async-return", examples("recipe-async-return"), [', returnUrl: "https://shop.example/done"', ""]],
  ["async-rule", examples("recipe-async-rule"), ["afterMs: 5000", "afterMs: 6000"]],
  ["async-pending", examples("recipe-async-pending"), ['outcome: "fail", code: "insufficient_funds"', 'outcome: "pass"']],
  ["async-reversal", examples("recipe-async-reversal"), ["afterMs: MINUTE,", "afterMs: 2 * MINUTE,"]],
  ["async-cards", examples("recipe-async-cards"), ['"4000 0000 0000 9995"', '"4242 4242 4242 4242"']],
];

/** The environment of a user's shell: without the mark by which this runner tells its own children. */
const env = { ...process.env };
delete env.NODE_TEST_CONTEXT;

let app;
/** Each recipe's two runs, started together once the app is made: name -> Promise<[as written, without its feature]>. */
const runs = new Map();
before(() => {
  app = makeConsumer();
  const queue = pool(4);
  for (const [name, [code], [feature, without]] of RECIPES) {
    if (code === undefined) continue;
    const asWritten = queue(() => runTest(`recipe-${name}.test.mjs`, code));
    const mutant = queue(() => runTest(`recipe-${name}-without.test.mjs`, code.replace(feature, without)));
    runs.set(name, Promise.all([asWritten, mutant]));
  }
});
after(() => {
  if (app) rmSync(app.dir, { recursive: true, force: true });
});

/** Runs `node --test FILE` in the app: {code, tests, pass, fail, output} read from its TAP summary. */
function runTest(file, code) {
  writeFileSync(join(app.dir, file), code);
  return new Promise((resolve) => {
    execFile(process.execPath, ["--test", "--test-reporter=tap", file], { cwd: app.dir, env, encoding: "utf8" }, (error, stdout, stderr) => {
      const count = (name) => Number(new RegExp(`^# ${name} (\\d+)$`, "m").exec(stdout)?.[1] ?? NaN);
      resolve({ code: error ? error.code : 0, tests: count("tests"), pass: count("pass"), fail: count("fail"), output: stdout + stderr });
    });
  });
}

/** Runs at most `size` of the jobs given to it at once: the machine's cores are few. */
function pool(size) {
  let running = 0;
  const waiting = [];
  const next = () => {
    if (running >= size || waiting.length === 0) return;
    running++;
    const { job, resolve, reject } = waiting.shift();
    job().then(resolve, reject).finally(() => {
      running--;
      next();
    });
  };
  return (job) => new Promise((resolve, reject) => {
    waiting.push({ job, resolve, reject });
    next();
  });
}

for (const [name, blocks, [feature]] of RECIPES) {
  test(`the recipe "${name}" passes as written, and fails without its feature`, async () => {
    assert.equal(blocks.length, 1, `the documentation has one <!-- example: recipe-${name} --> block`);
    const [code] = blocks;
    assert.ok(code.trimEnd().split("\n").length <= 40, `recipe-${name} is at most 40 lines`);
    assert.ok(code.includes(feature), `recipe-${name} contains ${feature}`);
    const [ran, mutant] = await runs.get(name);
    assert.equal(ran.code, 0, ran.output);
    assert.ok(ran.tests >= 1, ran.output);
    assert.deepEqual([ran.pass, ran.fail], [ran.tests, 0], ran.output);
    assert.notEqual(mutant.code, 0, `without ${feature}, recipe-${name} still passes:\n${mutant.output}`);
    assert.ok(mutant.fail >= 1, mutant.output);
  });
}
