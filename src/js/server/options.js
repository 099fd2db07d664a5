// The command line of `orderpay serve`: every option checked here, so that a
// mistake is one clear line naming the option, never a stack trace. The
// server's own options (port, timeouts, sessions) are checked here; those
// of the service only for their syntax, their ranges asked of the core
// (`new Service`), whose RangeError is then said with the flag's name.
// An option not given may come from its ORDERPAY_* variable (a container's
// only way in): the same check, the message naming the variable.
import { parseArgs as splitArgs } from "node:util";

import { Service } from "../node.js";
import { presets } from "../presets.js";

/** The server's own options when not given; usage() says them. */
export const DEFAULTS = {
  port: 4010,
  host: "127.0.0.1",
  base: "",
  latency: 0,
  maxSessions: 1000,
  sessionIdle: 30 * 60 * 1000,
  headersTimeout: 10_000,
  requestTimeout: 30_000,
};

/** A bare --latency: the simulated latency itself. */
const BARE_LATENCY = 1;

/**
 * `orderpay serve --help`. Each default is read where it lives (DEFAULTS
 * above, the core's for the service's options, the presets' own list), so
 * the text cannot drift from what the server does.
 */
export function usage() {
  const d = DEFAULTS;
  const core = coreDefaults();
  const names = wrap(`${Object.keys(presets).join(", ")})`, 32, 24);
  return `Usage: orderpay serve [options]
       orderpay health [--port N] [--host HOST]

Serves the order and payment service over HTTP, with its admin API under
/__orderpay/ and the live playground at /.

Options:
  --port N              port to listen on (default ${d.port}; 0 picks a free one)
  --host HOST           address to listen on (default ${d.host}); beyond
                        loopback, the admin API asks for a token
  --seed N              seed of the simulation (default: random)
  --failure-rate R      share of payment attempts declined, 0 to 1 (default ${core.failureRate})
  --log-capacity N      log records kept (default ${core.logCapacity})
  --max-orders N        orders kept at most
  --base PATH           the {base_url} path the gateway lives under (default ${d.base || "/"})
  --latency [FACTOR]    wait out each request's simulated latency (times FACTOR, default ${BARE_LATENCY})
  --state FILE          keep the whole state in FILE across restarts (the
                        named sessions in FILE.sessions/, one file each)
  --scenario FILE|NAME  a failure scenario: a JSON document in FILE, or a
                        preset (${names}
  --webhook URL         POST every event to URL, signed (repeatable: one
                        endpoint each); the secret and header flags that
                        follow it apply to it
  --webhook-secret S    the secret the --webhook before it is signed with
                        (default: made from the seed, printed at start)
  --webhook-header NAME Orderpay-Signature (default) or Stripe-Signature
  --max-sessions N      named sessions held at most (default ${d.maxSessions})
  --session-idle TIME   a named session unused this long ends: 90s, 30m,
                        2h, 500ms, or seconds (default ${durationText(d.sessionIdle)}; 0 never)
  --admin-token TOKEN   the admin API's token (beyond loopback: generated when absent)
  --playground DIR      serve the playground from DIR (default: the package's own)
  --headers-timeout MS  time a client has to send its headers (default ${d.headersTimeout})
  --request-timeout MS  time a client has to send its whole request (default ${d.requestTimeout})

In scripts and CI:
  --ready-file FILE     once listening, write {url, port, host, base, pid} as
                        JSON to FILE (removed at a stop); --port 0's port
  --exit-with-parent    stop when the process that started it exits (npx
                        does not pass its signal through its shell)
  --help                this text

Each option but --ready-file and --exit-with-parent may be given instead as
a variable: ORDERPAY_ and its name in capitals (--failure-rate 0.5:
ORDERPAY_FAILURE_RATE=0.5); the option wins over its variable, and an
empty variable counts as unset. ORDERPAY_WEBHOOK is one endpoint.

orderpay health asks GET /__orderpay/health of the server at --port and
--host (or ORDERPAY_PORT, ORDERPAY_HOST); exit code 0 when it answers ok.`;
}

/** The service's settings when given no option: the core's defaults. */
function coreDefaults() {
  const service = new Service();
  try {
    return service.settings;
  } finally {
    service.free();
  }
}

/** `text`, starting at `column`, cut after a ", " where a line would pass 80; the next lines indented by `indent`. */
function wrap(text, column, indent) {
  let out = "";
  for (const item of text.split(/(?<=, )/)) {
    if (out && column + item.trimEnd().length > 80) {
      out = `${out.trimEnd()}\n${" ".repeat(indent)}`;
      column = indent;
    }
    out += item;
    column += item.length;
  }
  return out;
}

/** A time in ms as --session-idle reads it back: 30m, 90s, 2h, 500ms. */
function durationText(ms) {
  for (const [unit, size] of [["h", 3_600_000], ["m", 60_000], ["s", 1000]]) {
    if (ms >= size && ms % size === 0) return `${ms / size}${unit}`;
  }
  return `${ms}ms`;
}

/** A command-line mistake: the message names the option; exit code 2. */
export class UsageError extends Error {}

const FLAGS = {
  "--port": "port",
  "--host": "host",
  "--seed": "seed",
  "--failure-rate": "failureRate",
  "--log-capacity": "logCapacity",
  "--max-orders": "maxOrders",
  "--base": "base",
  "--latency": "latency",
  "--state": "state",
  "--scenario": "scenario",
  "--admin-token": "adminToken",
  "--playground": "playground",
  "--headers-timeout": "headersTimeout",
  "--request-timeout": "requestTimeout",
  "--max-sessions": "maxSessions",
  "--session-idle": "sessionIdle",
  "--ready-file": "readyFile",
  "--exit-with-parent": "exitWithParent",
  "--webhook": "webhook",
  "--webhook-secret": "webhookSecret",
  "--webhook-header": "webhookHeader",
};

/** The flags that may be given more than once: each --webhook is an endpoint, the two after it its own. */
const REPEATABLE = new Set(["webhook", "webhookSecret", "webhookHeader"]);
/** The signature headers the service signs under. */
const WEBHOOK_HEADERS = ["Orderpay-Signature", "Stripe-Signature"];

/** The flags that take no value. */
const SWITCHES = new Set(["--exit-with-parent"]);

function wholeNumber(flag, text, min, max) {
  if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max) {
    throw new UsageError(`${flag}: expected a whole number from ${min} to ${max}, got ${JSON.stringify(text)}`);
  }
  return Number(text);
}

/** A decimal as people write one: 0.3, .5, 2; not 0x1, 1e-400 or " 1". */
const DECIMAL = /^(\d+(\.\d*)?|\.\d+)$/;

function number(flag, text, min, max) {
  const n = DECIMAL.test(text) ? Number(text) : NaN;
  if (!Number.isFinite(n) || n < min || n > max) {
    throw new UsageError(`${flag}: expected a number from ${min} to ${max}, got ${JSON.stringify(text)}`);
  }
  return n;
}

/**
 * An option of `new Service` as the core takes it: `value` is the number
 * the text reads as (NaN when its syntax is wrong), and the core refuses
 * what is out of its range. Its RangeError ("failureRate: must be a number
 * from 0 to 1, got 2") is said with the flag and the text as typed; the
 * ranges live in the core only (src/sim/settings.rs, src/wasm/options.rs).
 */
function serviceOption(flag, name, value, text) {
  try {
    new Service({ [name]: value }).free();
  } catch (error) {
    const range = error instanceof RangeError && new RegExp(`^${name}: must be (.*), got `).exec(error.message);
    if (!range) throw error;
    throw new UsageError(`${flag}: expected ${range[1]}, got ${JSON.stringify(text)}`);
  }
  return value;
}

const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, "": 1000 };

/** A time such as 30m, 90s, 2h or 500ms (a bare number: seconds), in ms; at most a week. */
function duration(flag, text) {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h|)$/.exec(text);
  const ms = m ? Math.round(Number(m[1]) * UNIT_MS[m[2]]) : NaN;
  if (!(ms >= 0 && ms <= 7 * 24 * 3_600_000)) {
    throw new UsageError(`${flag}: expected a time such as 30m, 90s, 2h or 500ms (at most a week; 0 never), got ${JSON.stringify(text)}`);
  }
  return ms;
}

const CHECK = {
  port: (f, t) => wholeNumber(f, t, 0, 65535),
  host: (f, t) => {
    if (!t || /[\s/]/.test(t)) throw new UsageError(`${f}: expected an address such as 127.0.0.1 or 0.0.0.0, got ${JSON.stringify(t)}`);
    return t;
  },
  seed: (f, t) => serviceOption(f, "seed", /^\d+$/.test(t) ? Number(t) : NaN, t),
  failureRate: (f, t) => serviceOption(f, "failureRate", DECIMAL.test(t) ? Number(t) : NaN, t),
  logCapacity: (f, t) => serviceOption(f, "logCapacity", /^\d+$/.test(t) ? Number(t) : NaN, t),
  maxOrders: (f, t) => serviceOption(f, "maxOrders", /^\d+$/.test(t) ? Number(t) : NaN, t),
  base: (f, t) => {
    if (!t.startsWith("/") || /[?#%\s]/.test(t) || t.split("/").some((s) => s === "." || s === "..")) {
      throw new UsageError(`${f}: expected a path such as /shop, got ${JSON.stringify(t)}`);
    }
    if (/^\/s(\/|$)/.test(t)) throw new UsageError(`${f}: /s/ is where session names go (/s/NAME/api/...); pick another path than ${JSON.stringify(t)}`);
    return t.replace(/\/+$/, "");
  },
  latency: (f, t) => number(f, t, 0, 100),
  state: (f, t) => {
    if (!t) throw new UsageError(`${f}: expected a file name`);
    return t;
  },
  scenario: (f, t) => {
    if (!t) throw new UsageError(`${f}: expected a scenario file or a preset name such as rate-limited`);
    return t;
  },
  adminToken: (f, t) => {
    if (!/^[\x21-\x7e]{8,256}$/.test(t)) {
      throw new UsageError(`${f}: expected 8 to 256 printable characters with no spaces`);
    }
    return t;
  },
  playground: (f, t) => {
    if (!t) throw new UsageError(`${f}: expected a directory`);
    return t;
  },
  readyFile: (f, t) => {
    if (!t) throw new UsageError(`${f}: expected a file name`);
    return t;
  },
  exitWithParent: (f, t) => {
    if (t !== "true") throw new UsageError(`${f}: takes no value, got ${JSON.stringify(t)}`);
    return true;
  },
  webhook: (f, t) => {
    let url = null;
    try {
      url = new URL(t);
    } catch {
      // Said below.
    }
    if (url === null || (url.protocol !== "http:" && url.protocol !== "https:")) {
      throw new UsageError(`${f}: expected an absolute http(s) URL such as http://127.0.0.1:3000/webhooks, got ${JSON.stringify(t)}`);
    }
    return t;
  },
  webhookSecret: (f, t) => {
    if (!/^[\x21-\x7e]{1,256}$/.test(t)) throw new UsageError(`${f}: expected 1 to 256 printable characters with no spaces, such as whsec_…`);
    return t;
  },
  webhookHeader: (f, t) => {
    const header = WEBHOOK_HEADERS.find((name) => name.toLowerCase() === t.toLowerCase());
    if (!header) throw new UsageError(`${f}: expected ${WEBHOOK_HEADERS.join(" or ")}, got ${JSON.stringify(t)}`);
    return header;
  },
  maxSessions: (f, t) => wholeNumber(f, t, 0, 1_000_000),
  sessionIdle: (f, t) => duration(f, t),
  headersTimeout: (f, t) => wholeNumber(f, t, 100, 3_600_000),
  requestTimeout: (f, t) => wholeNumber(f, t, 100, 3_600_000),
};

/** What node:util's parseArgs is told: every flag takes a value but --latency, whose value is optional. */
const PARSE = Object.fromEntries([
  ...Object.keys(FLAGS).map((flag) => [flag.slice(2), { type: flag === "--latency" || SWITCHES.has(flag) ? "boolean" : "string" }]),
  ["help", { type: "boolean", short: "h" }],
]);

/**
 * `serve` and its options, as `--name value` or `--name=value`. Returns
 * `{ help: true }` for --help. Throws a UsageError naming the option.
 * node:util's parseArgs splits the words; they are then read in order, so
 * the first mistake is the one reported.
 */
export function parseArgs(argv, env = {}) {
  const args = [...argv];
  const command = Object.hasOwn(COMMANDS, args[0]) ? args.shift() : undefined;
  if (command === undefined) {
    if (args[0] === undefined || args[0] === "--help" || args[0] === "-h" || args[0] === "help") return { help: true };
    throw new UsageError(`unknown command ${JSON.stringify(args[0])}; the commands are: orderpay serve, orderpay health`);
  }
  const options = command === "serve" ? { ...DEFAULTS } : { command, port: DEFAULTS.port, host: DEFAULTS.host };
  const seen = readFlags(args, COMMANDS[command], options);
  if (seen === null) return { help: true };
  readVariables(env, COMMANDS[command], seen, options);
  return options;
}

/**
 * The words after the command into `options`, in order, so that the first
 * mistake is the one reported: the names given, or null for --help.
 */
function readFlags(args, allowed, options) {
  const { tokens } = splitArgs({ args, options: PARSE, strict: false, allowPositionals: true, tokens: true });
  const seen = new Set();
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (token.kind === "option" && token.name === "help" && !token.inlineValue) return null;
    const flag = `--${token.name}`;
    const name = token.kind === "option" && token.rawName === flag && allowed.includes(flag) ? FLAGS[flag] : undefined;
    if (!name) throw new UsageError(`unknown option ${JSON.stringify(args[token.index])}; see orderpay serve --help`);
    if (seen.has(name) && !REPEATABLE.has(name)) throw new UsageError(`${flag}: given twice`);
    seen.add(name);
    let value = token.value;
    if (name === "latency" && !token.inlineValue) {
      // A bare --latency waits the simulated time itself; a factor may follow.
      const next = tokens[i + 1];
      value = next?.kind === "positional" && /^\d*\.?\d+$/.test(next.value) ? tokens[++i].value : String(BARE_LATENCY);
    } else if (SWITCHES.has(flag)) {
      value = token.inlineValue ? token.value : "true";
    } else if (!token.inlineValue && (value === undefined || value.startsWith("--"))) {
      throw new UsageError(`${flag}: needs a value`);
    }
    const checked = CHECK[name](flag, value);
    if (REPEATABLE.has(name)) addWebhookFlag(options, name, flag, checked);
    else options[name] = checked;
  }
  return seen;
}

/** The commands and the flags each takes: health only where to ask. */
const COMMANDS = { serve: Object.keys(FLAGS), health: ["--port", "--host"] };

/** The flags with no variable: they are for a script that starts the server itself, which passes arguments. */
const NO_VARIABLE = new Set(["--ready-file", "--exit-with-parent"]);

/** The variable that stands for `flag` when it is not given: --failure-rate, ORDERPAY_FAILURE_RATE. */
export function variableOf(flag) {
  return `ORDERPAY_${flag.slice(2).toUpperCase().replaceAll("-", "_")}`;
}

/**
 * The variables of the options not given as flags, checked as the flag's
 * value would be, the message naming the variable; an empty one, or one of
 * spaces only, is unset (a CI file's `VAR: ""` or `VAR: " "`).
 * `options.from` names the variable each value came from, for the messages
 * said later (cli.js). ORDERPAY_WEBHOOK is one endpoint, with
 * ORDERPAY_WEBHOOK_SECRET and ORDERPAY_WEBHOOK_HEADER its own; a --webhook
 * given replaces all three.
 */
function readVariables(env, allowed, seen, options) {
  for (const flag of allowed) {
    const name = FLAGS[flag];
    const variable = variableOf(flag);
    const text = env[variable];
    if (NO_VARIABLE.has(flag) || seen.has(name) || text === undefined || text.trim() === "") continue;
    if (REPEATABLE.has(name)) {
      if (seen.has("webhook")) continue;
      if (name !== "webhook" && options.webhooks === undefined) {
        throw new UsageError(`${variable}: is for the endpoint of ORDERPAY_WEBHOOK, which is not set`);
      }
      addWebhookFlag(options, name, variable, CHECK[name](variable, text));
    } else {
      options[name] = CHECK[name](variable, text);
    }
    options.from = { ...options.from, [name]: variable };
  }
}

/** --webhook starts an endpoint in `options.webhooks`; --webhook-secret and --webhook-header set the last one's. */
function addWebhookFlag(options, name, flag, value) {
  options.webhooks ??= [];
  if (name === "webhook") return void options.webhooks.push({ url: value });
  const field = name === "webhookSecret" ? "secret" : "header";
  const last = options.webhooks.at(-1);
  if (last === undefined) throw new UsageError(`${flag}: goes after the --webhook URL it is for`);
  if (last[field] !== undefined) throw new UsageError(`${flag}: given twice for --webhook ${last.url}`);
  last[field] = value;
}

/** The options of `new Service` among the command line's. */
export function serviceOptions(options) {
  const picked = {};
  for (const name of ["seed", "failureRate", "logCapacity", "maxOrders", "scenario", "webhooks"]) {
    if (options[name] !== undefined) picked[name] = options[name];
  }
  // Copies: the server fills in the secrets made from the seed (Instance.pinSecrets), the command line keeps what was typed.
  if (picked.webhooks) picked.webhooks = picked.webhooks.map((spec) => ({ ...spec }));
  return picked;
}

/** The command-line flag of an option, or the variable its value came from, to name it in a message. */
export function flagOf(name, options = {}) {
  return options.from?.[name] ?? Object.keys(FLAGS).find((flag) => FLAGS[flag] === name) ?? name;
}
