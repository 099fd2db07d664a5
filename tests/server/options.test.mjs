// The command line of `orderpay serve` word by word: what parseArgs of the
// shipped server/options.js makes of each form an option can take, and the
// one message each mistake gets (the first mistake, reading left to right).
// http.test.mjs runs the real command for the exit code of a few.
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";

import { root, serveFails } from "./serve.mjs";

const { parseArgs, DEFAULTS, UsageError, variableOf } = await import(join(root, "pkg", "server", "options.js"));

const parsed = (...args) => parseArgs(["serve", ...args]);
function refused(args, message) {
  assert.throws(() => parseArgs(["serve", ...args]), (error) => {
    assert.ok(error instanceof UsageError, `${args.join(" ")}: ${error}`);
    assert.equal(error.message, message, args.join(" "));
    return true;
  });
}

test("a value follows its option as the next word or after =", () => {
  assert.deepEqual(parsed("--port", "5"), { ...DEFAULTS, port: 5 });
  assert.deepEqual(parsed("--port=5", "--base=/shop/"), { ...DEFAULTS, port: 5, base: "/shop" });
  // A word after the option is its value even when it starts with one dash.
  assert.equal(parsed("--host", "-h").host, "-h");
  assert.deepEqual(parsed("--failure-rate", "0.5", "--seed", "7", "--max-orders", "3"),
    { ...DEFAULTS, failureRate: 0.5, seed: 7, maxOrders: 3 });
});

test("--exit-with-parent takes no value; --ready-file takes a file", () => {
  assert.deepEqual(parsed("--exit-with-parent", "--port", "3"), { ...DEFAULTS, exitWithParent: true, port: 3 });
  assert.equal(parsed("--ready-file", "ready.json").readyFile, "ready.json");
  assert.equal(parsed("--ready-file=ready.json").readyFile, "ready.json");
  refused(["--exit-with-parent=yes"], '--exit-with-parent: takes no value, got "yes"');
  refused(["--exit-with-parent", "yes"], 'unknown option "yes"; see orderpay serve --help');
  refused(["--ready-file"], "--ready-file: needs a value");
  refused(["--ready-file="], "--ready-file: expected a file name");
  refused(["--exit-with-parent", "--exit-with-parent"], "--exit-with-parent: given twice");
});

test("--latency takes a factor only when a number follows it", () => {
  assert.equal(parsed("--latency").latency, 1);
  assert.equal(parsed("--latency", "2").latency, 2);
  assert.equal(parsed("--latency", ".5").latency, 0.5);
  assert.equal(parsed("--latency=0.25").latency, 0.25);
  assert.deepEqual(parsed("--latency", "--port", "3"), { ...DEFAULTS, latency: 1, port: 3 });
  refused(["--latency", "fast"], 'unknown option "fast"; see orderpay serve --help');
  refused(["--latency=", "2"], '--latency: expected a number from 0 to 100, got ""');
});

test("help, from the command or anywhere among the options before a mistake", () => {
  for (const argv of [[], ["help"], ["--help"], ["-h"], ["serve", "-h"], ["serve", "--port", "1", "--help"]]) {
    assert.deepEqual(parseArgs(argv), { help: true }, argv.join(" "));
  }
  refused(["--port", "x", "--help"], '--port: expected a whole number from 0 to 65535, got "x"');
  refused(["--help=x"], 'unknown option "--help=x"; see orderpay serve --help');
  assert.throws(() => parseArgs(["start"]), { message: 'unknown command "start"; the commands are: orderpay serve, orderpay health' });
});

test("each mistake is named as it was typed", () => {
  refused(["--colour"], 'unknown option "--colour"; see orderpay serve --help');
  refused(["--nope=3"], 'unknown option "--nope=3"; see orderpay serve --help');
  refused(["-p", "3"], 'unknown option "-p"; see orderpay serve --help');
  refused(["-abc"], 'unknown option "-abc"; see orderpay serve --help');
  refused(["4010"], 'unknown option "4010"; see orderpay serve --help');
  refused(["--"], 'unknown option "--"; see orderpay serve --help');
  refused(["--port"], "--port: needs a value");
  refused(["--port", "--host", "x"], "--port: needs a value");
  refused(["--port", "1", "--port", "2"], "--port: given twice");
  refused(["--latency", "1", "--latency"], "--latency: given twice");
  refused(["--port=", "3"], '--port: expected a whole number from 0 to 65535, got ""');
  refused(["--state", ""], "--state: expected a file name");
});

test("a repeated or valueless option stops the command with exit code 2", async () => {
  for (const [args, message] of [
    [["--port", "0", "--port", "0"], "orderpay: --port: given twice"],
    [["--seed"], "orderpay: --seed: needs a value"],
  ]) {
    const { code, output } = await serveFails(args);
    assert.equal(code, 2, output);
    assert.match(output, new RegExp(message.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));
    assert.doesNotMatch(output, /\n\s+at /);
  }
});

test("--max-sessions takes a count, --session-idle a time; /s is not a --base", () => {
  assert.equal(parsed("--max-sessions", "0").maxSessions, 0);
  assert.equal(parsed("--max-sessions=25").maxSessions, 25);
  assert.deepEqual(["30m", "90s", "2h", "500ms", "45", "0", "1.5s"].map((t) => parsed("--session-idle", t).sessionIdle),
    [1_800_000, 90_000, 7_200_000, 500, 45_000, 0, 1500]);
  refused(["--max-sessions", "-1"], '--max-sessions: expected a whole number from 0 to 1000000, got "-1"');
  refused(["--session-idle", "soon"], '--session-idle: expected a time such as 30m, 90s, 2h or 500ms (at most a week; 0 never), got "soon"');
  refused(["--session-idle", "8d"], '--session-idle: expected a time such as 30m, 90s, 2h or 500ms (at most a week; 0 never), got "8d"');
  refused(["--base", "/s"], '--base: /s/ is where session names go (/s/NAME/api/...); pick another path than "/s"');
  assert.equal(parsed("--base", "/shop").base, "/shop");
});

test("the service's options: their syntax here, their ranges the service's own RangeError, said with the flag", async () => {
  const { Service } = await import(join(root, "pkg", "node.js"));
  /** What the service says an option must be, from its own RangeError. */
  const range = (name, value) => {
    try {
      new Service({ [name]: value }).free();
    } catch (error) {
      assert.ok(error instanceof RangeError, `${name}: ${error}`);
      return new RegExp(`^${name}: must be (.*), got `).exec(error.message)[1];
    }
    assert.fail(`${name}: ${value} was taken`);
  };
  // The service keeps no order at all with maxOrders 0, and the command line lets it (it once asked for 1).
  assert.equal(parsed("--max-orders", "0").maxOrders, 0);
  for (const [flag, name, text, value] of [
    ["--failure-rate", "failureRate", "2", 2],
    ["--failure-rate", "failureRate", "often", NaN],
    ["--seed", "seed", "1.5", 1.5],
    ["--seed", "seed", "99999999999999999999", 1e20],
    ["--log-capacity", "logCapacity", "2000000", 2_000_000],
    ["--max-orders", "maxOrders", "-1", -1],
  ]) {
    refused([flag, text], `${flag}: expected ${range(name, value)}, got ${JSON.stringify(text)}`);
  }
});

/** parseArgs of `serve ...args` with the variables `env`, refused with `message`. */
function refusedWith(env, args, message) {
  assert.throws(() => parseArgs(["serve", ...args], env), (error) => {
    assert.ok(error instanceof UsageError, `${JSON.stringify(env)}: ${error}`);
    assert.equal(error.message, message, JSON.stringify(env));
    return true;
  });
}

test("an option not given comes from its ORDERPAY_ variable, checked alike, the variable named", () => {
  const env = {
    ORDERPAY_PORT: "5", ORDERPAY_HOST: "0.0.0.0", ORDERPAY_SEED: "7", ORDERPAY_FAILURE_RATE: "0.5",
    ORDERPAY_LATENCY: "0.25", ORDERPAY_STATE: "/data/state.json", ORDERPAY_SCENARIO: "rate-limited",
    ORDERPAY_MAX_SESSIONS: "3", ORDERPAY_SESSION_IDLE: "90s", ORDERPAY_ADMIN_TOKEN: "secret-token",
  };
  const options = parseArgs(["serve"], env);
  assert.deepEqual(
    [options.port, options.host, options.seed, options.failureRate, options.latency, options.state, options.scenario,
      options.maxSessions, options.sessionIdle, options.adminToken],
    [5, "0.0.0.0", 7, 0.5, 0.25, "/data/state.json", "rate-limited", 3, 90_000, "secret-token"]);
  assert.equal(options.from.failureRate, "ORDERPAY_FAILURE_RATE");
  // The flag wins over its variable; an empty variable is unset; no variable for a script's two flags.
  assert.equal(parseArgs(["serve", "--port", "6"], env).port, 6);
  assert.deepEqual(parseArgs(["serve"], { ORDERPAY_PORT: "", ORDERPAY_READY_FILE: "r.json", ORDERPAY_EXIT_WITH_PARENT: "true" }), DEFAULTS);
  // Spaces only are unset too (a CI file's blank), not a file named " " or a preset "  ".
  assert.deepEqual(parseArgs(["serve"], { ORDERPAY_STATE: " ", ORDERPAY_SCENARIO: "  ", ORDERPAY_PORT: "\t" }), DEFAULTS);
  // A number is written in decimals: not hex, not an exponent, no spaces around it.
  refusedWith({ ORDERPAY_FAILURE_RATE: "0x1" }, [], 'ORDERPAY_FAILURE_RATE: expected a number from 0 to 1, got "0x1"');
  refusedWith({ ORDERPAY_LATENCY: "1e-400" }, [], 'ORDERPAY_LATENCY: expected a number from 0 to 100, got "1e-400"');
  refusedWith({ ORDERPAY_LATENCY: " 2" }, [], 'ORDERPAY_LATENCY: expected a number from 0 to 100, got " 2"');
  assert.equal(variableOf("--webhook-secret"), "ORDERPAY_WEBHOOK_SECRET");
  refusedWith({ ORDERPAY_PORT: "abc" }, [], 'ORDERPAY_PORT: expected a whole number from 0 to 65535, got "abc"');
  refusedWith({ ORDERPAY_SESSION_IDLE: "soon" }, [], 'ORDERPAY_SESSION_IDLE: expected a time such as 30m, 90s, 2h or 500ms (at most a week; 0 never), got "soon"');
  refusedWith({ ORDERPAY_LATENCY: "fast" }, [], 'ORDERPAY_LATENCY: expected a number from 0 to 100, got "fast"');
  // The service's range, said with the variable.
  refusedWith({ ORDERPAY_FAILURE_RATE: "2" }, [], 'ORDERPAY_FAILURE_RATE: expected a number from 0 to 1, got "2"');
  // A mistake among the flags is reported before one among the variables.
  refusedWith({ ORDERPAY_PORT: "abc" }, ["--seed", "x"], '--seed: expected a whole number from 0 to 9007199254740991, got "x"');
});

test("ORDERPAY_WEBHOOK is one endpoint, its secret and header its own; --webhook replaces all three", () => {
  const env = { ORDERPAY_WEBHOOK: "http://hooks:3000/in", ORDERPAY_WEBHOOK_SECRET: "whsec_x", ORDERPAY_WEBHOOK_HEADER: "stripe-signature" };
  assert.deepEqual(parseArgs(["serve"], env).webhooks, [{ url: "http://hooks:3000/in", secret: "whsec_x", header: "Stripe-Signature" }]);
  assert.deepEqual(parseArgs(["serve", "--webhook", "http://a/b"], env).webhooks, [{ url: "http://a/b" }]);
  refusedWith({ ORDERPAY_WEBHOOK_SECRET: "whsec_x" }, [], "ORDERPAY_WEBHOOK_SECRET: is for the endpoint of ORDERPAY_WEBHOOK, which is not set");
  refusedWith({ ORDERPAY_WEBHOOK: "hooks:3000" }, [], 'ORDERPAY_WEBHOOK: expected an absolute http(s) URL such as http://127.0.0.1:3000/webhooks, got "hooks:3000"');
  refusedWith({ ORDERPAY_WEBHOOK: "http://a/b", ORDERPAY_WEBHOOK_HEADER: "X-Sig" }, [], 'ORDERPAY_WEBHOOK_HEADER: expected Orderpay-Signature or Stripe-Signature, got "X-Sig"');
});

test("orderpay health takes the port and host only, from flags or variables", () => {
  const env = { ORDERPAY_PORT: "4011", ORDERPAY_HOST: "0.0.0.0", ORDERPAY_SEED: "not read here" };
  const { command, port, host, from } = parseArgs(["health"], env);
  assert.deepEqual({ command, port, host, from }, { command: "health", port: 4011, host: "0.0.0.0", from: { port: "ORDERPAY_PORT", host: "ORDERPAY_HOST" } });
  assert.deepEqual(parseArgs(["health", "--port", "9"]), { command: "health", port: 9, host: DEFAULTS.host });
  assert.throws(() => parseArgs(["health", "--seed", "1"]), { message: 'unknown option "--seed"; see orderpay serve --help' });
  assert.throws(() => parseArgs(["health"], { ORDERPAY_PORT: "x" }), { message: 'ORDERPAY_PORT: expected a whole number from 0 to 65535, got "x"' });
});
