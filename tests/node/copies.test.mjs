// The rules of the core that the JS layer still holds, each for a reason
// its file gives, held here to the core: the request limits, the request
// headers the service reads, the status texts, the Service Worker's rule for the gateway's URLs, and the network
// faults' default times (which the JS layer no longer holds at all), the
// defaults `orderpay serve --help` and docs/server.md say; the playground
// page's copies (the challenge page's button labels, the log's enumerated
// values, the webhook delivery faults it explains), and the answer headers a copied test checks,
// which the page saves with its run. And the copies that were removed stay removed.
//
// Needs the built package: `source .ci/lib.sh && build_package` (CI does it).
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { test } from "node:test";
import { runInNewContext } from "node:vm";

const pkg = (file) => new URL(`../../pkg/${file}`, import.meta.url);
const src = (file) => readFileSync(new URL(`../../src/js/${file}`, import.meta.url), "utf8");
const { Service, openapi } = await import(pkg("node.js").href);
const { exchange } = await import(pkg("service.js").href);
const { MAX_BODY, MAX_HEADER_BYTES, MAX_PATH } = await import(pkg("request_parts.js").href);
const { STATUS_TEXT } = await import(pkg("status_text.js").href);
const { gateway } = await import(pkg("gateway_url.js").href);
const { gatewayPaths } = await import(pkg("server/gateway.js").href);
const { parseArgs, usage } = await import(pkg("server/options.js").href);
const { presets } = await import(pkg("presets.js").href);
const { ANSWER_HEADERS, TRACE_HEADERS } = await import(pkg("read_headers.js").href);
const { BUYER } = await import(new URL("../../www/buyer-answers.js", import.meta.url).href);
const { KNOWN_VALUES } = await import(new URL("../../www/log-values.js", import.meta.url).href);
const { DELIVERY_FAULTS } = await import(new URL("../../www/webhook-words.js", import.meta.url).href);
const { CHECKED_HEADERS, factsOf } = await import(pkg("test_plan.js").href);
const { STORIES } = await import(new URL("./copy-stories.mjs", import.meta.url).href);
const document = JSON.parse(openapi());

test("the request headers read_headers.js lists are the core's header parameters, with those it reads beside its paths' parameters", () => {
  const parameters = Object.values(document.components.parameters).filter((p) => p.in === "header").map((p) => p.name.toLowerCase());
  // The body's type (each requestBody's content), a browser's Accept (the challenge page) and a scenario for one request (docs/scenarios.md).
  const beside = ["content-type", "accept", "x-orderpay-scenario"];
  assert.deepEqual([...ANSWER_HEADERS, ...TRACE_HEADERS].sort(), [...parameters, ...beside].sort());
});

test("the request limits the JS layer measures are the core's (its OpenAPI document's x-limits)", () => {
  const limits = JSON.stringify(document).match(/"x-limits":(\{[^}]*\})/);
  assert.ok(limits, "the core's document has x-limits");
  const { bodyBytes, pathBytes, headerBytes } = JSON.parse(limits[1]);
  assert.deepEqual({ MAX_BODY, MAX_PATH, MAX_HEADER_BYTES }, { MAX_BODY: bodyBytes, MAX_PATH: pathBytes, MAX_HEADER_BYTES: headerBytes });
});

test("one status text for every status orderpay gives, and none other", () => {
  const core = Object.values(document.paths).flatMap((item) => Object.values(item).flatMap((op) => Object.keys(op.responses)));
  const schema = JSON.parse(src("scenario.schema.json"));
  const http = JSON.stringify(schema).match(/"status":\{"enum":(\[[\d,]+\])\}/);
  assert.ok(http, "the scenario schema lists the http faults' statuses");
  // The server's own answers beside the service's: a preflight, its token, another origin, a slow client.
  const server = [204, 401, 403, 408];
  const given = [...new Set([...core.map(Number), ...JSON.parse(http[1]), ...server])].sort((a, b) => a - b);
  assert.deepEqual(Object.keys(STATUS_TEXT).map(Number), given);
  for (const text of Object.values(STATUS_TEXT)) assert.match(text, /^[A-Z][A-Za-z -]+$/);
  // And the table's users read it, rather than a table of their own: the
  // package's two, and the playground's HAR export (served beside pkg/).
  assert.doesNotMatch(src("adapter.js") + src("server/reply.js"), /STATUS_TEXT = \{/);
  const har = readFileSync(new URL("../../www/har.js", import.meta.url), "utf8");
  assert.match(har, /^import \{ statusText \} from "\.\/pkg\/status_text\.js";$/m);
  assert.doesNotMatch(har, /"Not Found"|STATUS_TEXT/);
});

/** The Service Worker's GATEWAY pattern for `base`, with the worker served from `origin`. */
function workerGateway(base, origin) {
  const self = {
    location: { origin, href: `${origin}/worker.js?base=${encodeURIComponent(base)}` },
    registration: { scope: `${origin}/` },
    addEventListener() {},
  };
  return runInNewContext(`${src("worker.js")}\n;GATEWAY`, { self, URL, Response, console });
}

test("the Service Worker's copy of the gateway's URLs answers as gateway() does", () => {
  const origin = "https://app.example.test";
  const urls = (path) => [
    `${origin}${path}/api`, `${origin}${path}/api/`, `${origin}${path}/API/ORDER/CREATE`, `${origin}${path}/api/order/create?x=1#top`,
    `${origin}${path}/apix`, `${origin}${path}/api2/order`, `${origin}/api/order`, `https://other.test${path}/api/order`,
    `${origin}${path}/shop/api`, `http://app.example.test${path}/api/order`, "https://api.example.test/v1/api/order",
    "https://api.example.test/api/order", `${origin}${path}`,
  ];
  for (const base of ["/", "/shop", "/shop/", "/a.b", "https://api.example.test/v1", "https://api.example.test"]) {
    const pattern = workerGateway(base, origin);
    const absolute = /^https?:/.test(base) ? base : origin + base;
    const path = /^https?:/.test(base) ? "" : base.replace(/\/+$/, "");
    for (const url of urls(path)) {
      assert.equal(pattern.test(url), gateway(absolute).pathOf(url) !== null, `${base}: ${url}`);
    }
  }
});

test("the server's gateway paths are gateway()'s, on any origin", () => {
  for (const base of ["", "/shop"]) {
    const gw = gateway(base || "/", { anyOrigin: true });
    const paths = gatewayPaths(base);
    for (const path of ["/api", "/API/order/create", "/api/", "/apix", "/shop/api/order/x", "/shop/apix", "/shopapi", "/", "/x/api", "//api"]) {
      const rest = paths(path);
      assert.equal(rest !== null, gw.pathOf(`http://h${path}`) !== null, `${base}: ${path}`);
      if (rest !== null) assert.equal(base + rest, path);
    }
  }
});

test("a network fault's time is the core's default when its rule gives none; the JS layer keeps no default", () => {
  const faultOf = (fault) => {
    const service = new Service({ seed: 1, scenario: { rules: [{ then: { kind: "network", fault } }] } });
    const reply = exchange(service, "POST", "/api/order/create", '{"userId":"u","price":1}', [["content-type", "application/json"]]);
    service.free();
    return reply.fault;
  };
  const hang = faultOf("hang").ms;
  const dribble = faultOf("dribble").ms;
  assert.deepEqual([hang, dribble], [30000, 5000]);
  // docs/network-faults.md says the same defaults.
  const doc = readFileSync(new URL("../../docs/network-faults.md", import.meta.url), "utf8");
  assert.match(doc, new RegExp(`\\| \`hang\` \\|.*\\(default ${hang}\\)`));
  assert.match(doc, new RegExp(`\\| \`dribble\` \\|.*\\(default ${dribble}\\)`));
  for (const file of ["fault_as_fetch.js", "worker.js", "server/fault_on_socket.js"]) {
    assert.doesNotMatch(src(file), /\b(30000|30_000|5000|5_000)\b/, `${file} keeps a default time of its own`);
  }
});

/** Each option's entry of a help text or a table: its lines joined, by its flag. */
function entries(text, start) {
  const found = new Map();
  let flag = null;
  for (const line of text.split("\n")) {
    const m = start.exec(line);
    if (m) found.set((flag = m[1]), line);
    else if (flag && /^ {24}\S/.test(line)) found.set(flag, `${found.get(flag)} ${line.trim()}`);
    else flag = null;
  }
  return found;
}

test("the server's help text and docs/server.md say the defaults the server runs with; options.js writes none out", () => {
  const cli = parseArgs(["serve"]);
  const service = new Service();
  const { failureRate, logCapacity } = service.settings;
  service.free();
  // What the server runs with when the option is not given (a bare --latency for its factor).
  const runs = {
    "--port": cli.port, "--host": cli.host, "--base": cli.base || "/", "--failure-rate": failureRate,
    "--log-capacity": logCapacity, "--latency": parseArgs(["serve", "--latency"]).latency,
    "--max-sessions": cli.maxSessions, "--session-idle": cli.sessionIdle,
    "--headers-timeout": cli.headersTimeout, "--request-timeout": cli.requestTimeout,
  };
  /** A default as said, read back as the command line reads a value given. */
  const readBack = (flag, text) => (flag === "--session-idle" ? parseArgs(["serve", flag, text]).sessionIdle : typeof runs[flag] === "number" ? Number(text) : text);
  const help = entries(usage(), /^ {2}(--[\w-]+)/);
  for (const [flag, value] of Object.entries(runs)) {
    const said = /default:? `?([^;)`\s]+)/.exec(help.get(flag) ?? "")?.[1];
    assert.equal(readBack(flag, said), value, `--help on ${flag}: ${help.get(flag)}`);
  }
  assert.match(help.get("--scenario").replace(/\s+/g, " "), new RegExp(`preset \\(${Object.keys(presets).join(", ")}\\)`));
  // docs/server.md's table: each row that gives a default gives the same (one row has two timeouts).
  const doc = readFileSync(new URL("../../docs/server.md", import.meta.url), "utf8");
  const rows = entries(doc, /^\| `(--[\w-]+)/);
  rows.set("--request-timeout", /\| `--headers-timeout MS`, `--request-timeout MS` \|.*?\(default \d+\)(.*)/.exec(doc)?.[1]);
  let checked = 0;
  for (const [flag, value] of Object.entries(runs)) {
    const said = /default:? `?([^;)`\s]+)/.exec(rows.get(flag) ?? "")?.[1];
    if (said === undefined) continue;
    checked++;
    assert.equal(readBack(flag, said), value, `docs/server.md on ${flag}: ${rows.get(flag)}`);
  }
  assert.ok(checked >= 7, "docs/server.md gives the defaults of the port, host, latency, sessions and timeouts");
  // The help text takes them from those sources; the sessions keep no default of their own.
  assert.doesNotMatch(src("server/options.js"), /\(default \d|default \d|default 30m|third-party-down,/);
  assert.doesNotMatch(src("server/session_hooks.js"), /DEFAULT_MAX_SESSIONS|DEFAULT_SESSION_IDLE|= 1000;|30 \* 60/);
});

test("the copies removed stay removed", () => {
  // The server's own checks of what the service checks: forceNext's outcome, the snapshot's format, --max-orders' fallback.
  assert.doesNotMatch(src("server/admin.js"), /"success" or "failure"/);
  assert.doesNotMatch(src("server/state.js"), /JSON\.parse/);
  for (const file of ["server/instance.js", "server/cli.js", "server/admin.js", "server/admin-openapi.js"]) {
    assert.doesNotMatch(src(file), /maxOrdersIgnored|unknown option "maxOrders"/, file);
  }
  // The service's ranges: the command line names none of them.
  assert.doesNotMatch(src("server/options.js"), /MAX_SAFE_INTEGER|number\(f, t, 0, 1\)|(seed|failureRate|logCapacity|maxOrders): \(f, t\) => (wholeNumber|number)\(/);
  // One body limit, one gateway rule (and the worker's tied copy).
  assert.doesNotMatch(src("server/gateway.js"), /1024 \* 1024|\/\^\\\/api/);
});

test("every file of the repository the JS layer's comments point at exists", () => {
  const root = new URL("../../", import.meta.url);
  const files = (dir) =>
    readdirSync(new URL(dir, root), { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? files(`${dir}${entry.name}/`) : /\.(js|ts)$/.test(entry.name) ? [`${dir}${entry.name}`] : [],
    );
  const named = new Set();
  for (const file of files("src/js/")) {
    for (const [path] of readFileSync(new URL(file, root), "utf8").matchAll(/\bsrc\/[\w/]+\.(?:rs|js|json)\b/g)) named.add(`${file}: ${path}`);
  }
  assert.ok(named.size > 5, "the JS layer names the core's files");
  for (const entry of named) {
    const path = entry.split(": ")[1];
    assert.ok(existsSync(new URL(path, root)), `${entry} does not exist`);
  }
});

const core = (file) => readFileSync(new URL(`../../src/${file}`, import.meta.url), "utf8");
const www = (file) => readFileSync(new URL(`../../www/${file}`, import.meta.url), "utf8");

test("the page's labels of the buyer's answers are those of the challenge page the package serves", () => {
  const service = new Service({ seed: 1 });
  const json = [["content-type", "application/json"]];
  const order = JSON.parse(exchange(service, "POST", "/api/order/create", '{"userId":"u","price":5}', json).text).data;
  const pay = JSON.stringify({ orderId: order.orderId, amount: 5, paymentMethod: "CARD", cardNumber: "4000002500003155" });
  const payment = JSON.parse(exchange(service, "POST", "/api/payment/pay", pay, json).text).data;
  const page = exchange(service, "GET", payment.nextAction.url, null, []).text;
  service.free();
  const buttons = Object.fromEntries([...page.matchAll(/<button[^>]*\bvalue="(\w+)"[^>]*>([^<]+)<\/button>/g)].map((m) => [m[1], m[2].trim()]));
  assert.equal(Object.keys(buttons).length, 3, page);
  assert.deepEqual({ ...BUYER }, buttons);
});

test("the values the page's log filters offer are those the core writes", () => {
  const arms = (text) => [...text.matchAll(/=> "([^"]+)"/g)].map((m) => m[1]);
  const between = (text, from, to) => text.slice(text.indexOf(from), text.indexOf(to, text.indexOf(from)));
  const render = core("observe/render.rs");
  const stages = [...["observe/render.rs", "observe/payment_change.rs", "observe/webhook_attempt.rs"].map(core).join("").matchAll(/\\"stage\\":\\"(\w+)\\"/g)].map((m) => m[1]);
  const groups = [...between(core("domain/route_table.rs"), "pub fn uri_group", "\n}\n").matchAll(/Some\("([^"]+)"\)/g)].map((m) => m[1]);
  const sorted = (list) => [...list].sort();
  assert.deepEqual(sorted(KNOWN_VALUES.stage), sorted(stages));
  assert.deepEqual(sorted(KNOWN_VALUES.status), sorted(arms(between(render, "impl LogStatus", "\n}\n"))));
  assert.deepEqual(sorted(KNOWN_VALUES.event_class), sorted(arms(between(core("observe/event_class.rs"), "pub fn as_str", "\n    }\n"))));
  assert.deepEqual(sorted(KNOWN_VALUES.uri_group), sorted(groups));
  // The log view reads them from there, and keeps no list of its own.
  assert.doesNotMatch(www("logs.js"), /server_error", "client_error|"gateway", "service"/);
});

test("the page keeps none of the core's rules on asynchronous payments, forceNext or the presets", () => {
  // What a pay planned is its record's `outcome.async`: no default time, decline code or reversal reason restated.
  for (const file of ["payment-states.js", "faults.js"]) {
    assert.doesNotMatch(www(file), /\?\? (30000|60000|30_000|60_000|"generic_decline"|"authentication_required"|"pass")|reversed after it succeeded/, file);
  }
  assert.doesNotMatch(www("payment-states.js"), /test-card-table|findCard/, "a card's plan is its record's, not the card table's");
  // Which operation a path is comes from the core's route table (routes.js), not a regex of the page.
  assert.doesNotMatch(www("payment-states.js"), /\\\/api\\\/payment/);
  // forceNext's count is the service's to check; the presets are the package's `presets`.
  assert.doesNotMatch(www("simulation.js"), /MAX_FORCED|10000/);
  assert.doesNotMatch(www("failures.js"), /PRESET_NAMES|"third-party-down"/);
  // The buyer's labels are in one place of the page.
  for (const file of ["challenge.js", "payment-states.js", "flow.js"]) assert.doesNotMatch(www(file), /pass: "Complete"|Complete, Fail or Cancel/, file);
});

test("the page explains each delivery fault kind the scenario schema has, and none other", () => {
  const schema = JSON.parse(src("scenario.schema.json"));
  const kinds = schema.$defs?.deliveryKind?.enum;
  assert.ok(Array.isArray(kinds) && kinds.length > 0, "the schema lists the delivery kinds ($defs.deliveryKind)");
  assert.deepEqual(Object.keys(DELIVERY_FAULTS).sort(), [...kinds].sort());
});

test("the page saves of each answer the headers a copied test checks, from the package's one list", () => {
  // The list is whole: the facts a copy checks are the same from those headers alone.
  const service = STORIES["declined-then-replayed"](Service);
  const answers = service.run().steps.flatMap((step) => (step.answer ? [step.answer] : []));
  service.free();
  const only = (headers) => Object.fromEntries(CHECKED_HEADERS.filter((name) => headers[name] !== undefined).map((name) => [name, headers[name]]));
  for (const answer of answers) assert.deepEqual(factsOf({ ...answer, headers: only(answer.headers) }), factsOf(answer));
  assert.ok(answers.some((answer) => factsOf(answer).declineCode !== undefined) && answers.some((answer) => factsOf(answer).replayed), "the story has a decline code and a replay to check");
  // The page reads the package's list (served beside it) and states none of its own.
  const store = www("store.js");
  assert.match(store, /^import \{ CHECKED_HEADERS \} from "\.\/pkg\/test_plan\.js";$/m);
  assert.doesNotMatch(store, /"x-orderpay-decline-code"|"idempotent-replayed"/);
});
