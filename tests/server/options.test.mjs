// The command line of `orderpay serve` word by word: what parseArgs of the
// shipped server/options.js makes of each form an option can take, and the
// one message each mistake gets (the first mistake, reading left to right).
// http.test.mjs runs the real command for the exit code of a few.
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";

import { root, serveFails } from "./serve.mjs";

const { parseArgs, DEFAULTS, UsageError } = await import(join(root, "pkg", "server", "options.js"));

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
  assert.throws(() => parseArgs(["start"]), { message: 'unknown command "start"; the command is: orderpay serve' });
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
