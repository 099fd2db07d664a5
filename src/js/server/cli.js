#!/usr/bin/env node
// `orderpay serve`: the service over HTTP. Exit codes: 0 after a graceful
// stop (SIGINT, SIGTERM, SIGHUP, or its parent gone with --exit-with-parent),
// 1 when the state file cannot be used, 2 for a command-line mistake
// (or a --ready-file it cannot write), 3 when the address is taken or not available.
// Its options come from the arguments, then the ORDERPAY_* variables; once
// it listens it prints its address, the last line `orderpay ready on URL`.
// `orderpay health` asks a running server whether it is up (health_check.js).
//
// Everything that makes a stop graceful (the signal handlers, the watch of
// the parent) is in place before readiness is announced: a script may stop
// the server the moment its ready file appears.
import { PARENT_AT_START, watchParent } from "./parent_watch.js"; // first: it reads the parent as the process starts
import "./v8_flags.js";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

import { createOrderpayServer } from "./app.js";
import { healthCheck } from "./health_check.js";
import { flagOf, parseArgs, serviceOptions, usage, UsageError } from "./options.js";
import { clearReadyFile, writeReadyFile } from "./ready_file.js";
import { loadSessions, sessionsDir } from "./sessions.js";
import { StateError, StateFile } from "./state.js";

const STOP_GRACE_MS = 10_000;

// A script that stopped reading the output must not turn a stop into a crash.
for (const stream of [process.stdout, process.stderr]) stream.on("error", () => {});

function fail(code, message) {
  console.error(`orderpay: ${message}`);
  process.exit(code);
}

/**
 * --scenario's value, named `label` in a message: a document written out
 * (it starts with "{"), the document in the file it names, else a preset's
 * name (the service checks both).
 */
function scenarioOf(value, label) {
  if (value.trimStart().startsWith("{")) {
    try {
      return JSON.parse(value);
    } catch (error) {
      fail(2, `${label}: starts with "{" but is not JSON (${error.message})`);
    }
  }
  if (!existsSync(value)) {
    if (/[/\\.]/.test(value)) fail(2, `${label}: no file ${value}`);
    return value;
  }
  let text;
  try {
    text = readFileSync(value, "utf8");
  } catch (error) {
    fail(2, `${label}: cannot read ${value}: ${error.message}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    fail(2, `${label}: ${value} is not JSON (${error.message})`);
  }
}

let options;
try {
  options = parseArgs(process.argv.slice(2), process.env);
} catch (error) {
  if (error instanceof UsageError) fail(2, error.message);
  throw error;
}
if (options.help) {
  console.log(usage());
  process.exit(0);
}
if (options.command === "health") process.exit(await healthCheck(options));
if (options.playground === undefined) {
  const own = fileURLToPath(new URL("../playground/", import.meta.url));
  if (existsSync(own)) options.playground = own;
} else if (!existsSync(options.playground)) {
  fail(2, `${flagOf("playground", options)}: no directory ${options.playground}`);
}

const scenarioName = options.scenario?.trimStart().startsWith("{") ? "the document given" : options.scenario;
if (options.scenario !== undefined) options.scenario = scenarioOf(options.scenario, flagOf("scenario", options));

if (options.state) {
  try {
    options.snapshot = StateFile.load(options.state);
    options.savedSessions = loadSessions(options.state);
  } catch (error) {
    if (error instanceof StateError) fail(1, error.message.replace(/^--state/, flagOf("state", options)));
    throw error;
  }
}

let server;
try {
  server = createOrderpayServer(options, serviceOptions(options));
} catch (error) {
  // The service names the option it refused (failureRate: ...); say it as the flag.
  const name = /^(\w+):/.exec(error.message)?.[1];
  fail(2, name ? error.message.replace(name, flagOf(name, options)) : error.message);
}

if (options.readyFile) {
  try {
    clearReadyFile(options.readyFile);
  } catch (error) {
    fail(2, `--ready-file: cannot remove the old ${options.readyFile}: ${error.message}`);
  }
}

let url;
try {
  url = await server.start();
} catch (error) {
  const where = `${options.host}:${options.port}`;
  const [port, host] = [flagOf("port", options), flagOf("host", options)];
  if (error.code === "EADDRINUSE") fail(3, `${where} is already in use; stop what runs there or pick another port with ${port}`);
  if (error.code === "EADDRNOTAVAIL") fail(3, `${options.host} is not an address of this machine (${host})`);
  if (error.code === "EACCES") fail(3, `not allowed to listen on ${where}; pick a port above 1023 with ${port}`);
  fail(3, `cannot listen on ${where}: ${error.message}`);
}

const ctx = server.orderpay;
let stopping = false;
async function stop(signal) {
  if (stopping) {
    console.error(`orderpay: ${signal} again; stopping now`);
    process.exit(130);
  }
  stopping = true;
  console.log(`orderpay: ${signal}: finishing the requests in flight...`);
  if (options.readyFile) clearReadyFile(options.readyFile);
  const force = setTimeout(() => {
    console.error(`orderpay: requests still running after ${STOP_GRACE_MS} ms; stopping anyway`);
    server.closeAllConnections();
  }, STOP_GRACE_MS);
  force.unref();
  await new Promise((resolve) => {
    server.close(resolve);
    server.closeIdleConnections();
  });
  try {
    await ctx.state?.flush();
    await ctx.sessions.flush();
    if (ctx.state) console.log(`orderpay: state saved to ${options.state}`);
  } catch (error) {
    console.error(`orderpay: could not save the state to ${options.state}: ${error.message}`);
    process.exit(1);
  }
  console.log("orderpay: stopped");
  process.exit(0);
}

process.on("SIGINT", () => stop("SIGINT"));
process.on("SIGTERM", () => stop("SIGTERM"));
process.on("SIGHUP", () => stop("SIGHUP"));
if (options.exitWithParent) watchParent(() => stop(`the process that started it (pid ${PARENT_AT_START}) exited`));

// Written before the lines below, so that once they are out the file is there too.
if (options.readyFile) {
  try {
    writeReadyFile(options.readyFile, { url, port: server.address().port, host: options.host, base: ctx.base });
  } catch (error) {
    server.closeAllConnections();
    fail(2, `--ready-file: cannot write ${options.readyFile}: ${error.message}`);
  }
}
const settings = ctx.instance.service.settings;
const lines = [
  `orderpay serving on ${url}${ctx.base}/api (seed ${settings.seed}, failure rate ${settings.failureRate})`,
  `  try: curl -X POST ${url}${ctx.base}/api/order/create -H 'Content-Type: application/json' -d '{"userId":"u1","price":9.9}'`,
  `  admin API: ${url}/__orderpay/health, OpenAPI at ${url}/__orderpay/openapi.json (gateway) and ${url}/__orderpay/openapi-admin.json (admin API)`,
];
if (options.playground) lines.push(`  playground: ${url}/${ctx.access.token ? `#token=${ctx.access.token}` : ""}`);
if (ctx.access.token) {
  lines.push(`  admin token${ctx.access.generated ? " (generated)" : ""}: ${ctx.access.token}  (Authorization: Bearer TOKEN)`);
}
// The --webhook endpoints, each with its secret: the receiver verifies with it.
for (const endpoint of options.webhooks?.length ? ctx.instance.service.webhooks() : []) {
  if (endpoint.url === undefined) continue;
  // A secret neither given nor kept in --state's file was made from the seed.
  const made = !options.snapshot && !options.webhooks?.some((spec) => spec.url === endpoint.url && spec.secret !== undefined);
  lines.push(`  webhook ${endpoint.id}: ${endpoint.url}, signed under ${endpoint.header ?? "Orderpay-Signature"} with ${endpoint.secret}${made ? " (made from the seed)" : ""}`);
}
if (options.state) lines.push(`  state: ${options.state}${options.snapshot ? " (restored)" : " (new)"}`);
if (scenarioName !== undefined) lines.push(`  scenario: ${scenarioName} (GET /__orderpay/scenario shows its progress)`);
if (ctx.sessions.size) lines.push(`  sessions: ${ctx.sessions.size} restored from ${sessionsDir(options.state)}`);
// The one line a script or a container's log watcher may wait for: it stays as it is.
lines.push(`orderpay ready on ${url}`);
console.log(lines.join("\n"));
