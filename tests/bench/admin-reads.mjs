// What the admin reads cost `orderpay serve`: GET /__orderpay/logs (the
// whole log, and a poll of the newest records), /spans (all, and one
// trace's), /otlp, and the live stream (20 clients following the log while
// orders are created). autocannon on 127.0.0.1, 10 connections, a log of
// 3,000 records (1,000 orders) first. Prints requests/s and the server's
// CPU time per request (from /proc); tests nothing.
//
// Given several built packages, runs each in turn every round, so that the
// machine's drift touches all alike: `git worktree` or `git archive` an
// older commit, build it, and pass both to compare in one run.
//
// Run: node tests/bench/admin-reads.mjs [seconds per run, default 3] [rounds, default 3] [pkg dir ...; default pkg/]
// Needs the built package (pkg/) and tests/server's tooling (.ci/lib.sh).
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { loadavg } from "node:os";
import { join, resolve } from "node:path";

const root = new URL("../..", import.meta.url).pathname;
const require = createRequire(join(root, "tests", "server", "package.json"));
const autocannon = require("autocannon");

const SECONDS = Number(process.argv[2] ?? 3);
const ROUNDS = Number(process.argv[3] ?? 3);
const PACKAGES = process.argv.length > 4 ? process.argv.slice(4).map((p) => resolve(p)) : [join(root, "pkg")];
const CONNECTIONS = 10;
const ORDERS = 1000;
const FOLLOWERS = 20;
const CREATE = { method: "POST", path: "/api/order/create", headers: { "content-type": "application/json" },
  body: JSON.stringify({ userId: "bench", price: 9.9, description: "load" }) };

/** Starts `orderpay serve` of a package; resolves with { url, proc } once it prints its address. */
function start(pkg) {
  const proc = spawn(process.execPath, [join(pkg, "server", "cli.js"), "serve", "--port", "0", "--seed", "1"], { stdio: ["pipe", "pipe", "inherit"] });
  let out = "";
  return new Promise((ok, fail) => {
    proc.stdout.on("data", (d) => {
      out += d;
      const m = /serving on (http:\/\/[^\s]+?)\/api/.exec(out);
      if (m) ok({ url: m[1], proc });
    });
    proc.on("exit", (code) => fail(new Error(`exited ${code}: ${out}`)));
  });
}

/** CPU time a process has spent, user and system, in µs. */
function cpuMicros(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

/** One autocannon run of `requests` against a server: { rate, cpu (µs a request), bad }. */
async function run(server, requests) {
  const before = cpuMicros(server.proc.pid);
  const result = await autocannon({ url: server.url, connections: CONNECTIONS, duration: SECONDS, requests });
  return {
    rate: result.requests.average,
    cpu: (cpuMicros(server.proc.pid) - before) / result.requests.total,
    bad: result.non2xx + result.errors + result.timeouts,
  };
}

/** FOLLOWERS clients of /__orderpay/events from the log's end, reading and dropping what comes; returns how to stop them. */
async function follow(server) {
  const records = (await (await fetch(`${server.url}/__orderpay/logs?after=${server.lastSeq}`)).json()).data.records;
  server.lastSeq = records.at(-1)?.seq ?? server.lastSeq;
  const controller = new AbortController();
  for (let i = 0; i < FOLLOWERS; i++) {
    fetch(`${server.url}/__orderpay/events?after=${server.lastSeq}`, { signal: controller.signal })
      .then(async (res) => { for await (const chunk of res.body) void chunk; })
      .catch(() => {});
  }
  return () => controller.abort();
}

/** The reads, each [name, requests or a function of the server returning { run, stop }]. */
function reads(server) {
  const get = (path) => [{ method: "GET", path: `/__orderpay${path}` }];
  return [
    ["GET /logs (3,000 records)", get("/logs")],
    ["GET /logs?after= (a poll, 30 newest)", get(`/logs?after=${server.lastSeq - 30}`)],
    ["GET /spans", get("/spans")],
    ["GET /spans?traceId= (one trace)", get(`/spans?traceId=${server.traceId}`)],
    ["GET /otlp", get("/otlp")],
  ];
}

const servers = [];
for (const pkg of PACKAGES) {
  const server = await start(pkg);
  server.pkg = pkg;
  await autocannon({ url: server.url, connections: CONNECTIONS, amount: ORDERS, requests: [CREATE] });
  const logs = await (await fetch(`${server.url}/__orderpay/logs`)).json();
  server.lastSeq = logs.data.records.at(-1).seq;
  server.traceId = logs.data.records.at(-1).traceId;
  // The stream is measured on a server of its own: its creates leave the first one's log as it was.
  server.followed = await start(pkg);
  server.followed.lastSeq = 0;
  servers.push(server);
}

console.log(`admin reads of orderpay serve: ${CONNECTIONS} connections, ${SECONDS} s a run, ${ROUNDS} rounds, Node ${process.version}`);
const results = new Map();
const keep = (key, r) => results.set(key, [...(results.get(key) ?? []), r]);
try {
  for (let round = 1; round <= ROUNDS; round++) {
    for (const server of servers) {
      for (const [name, requests] of reads(server)) keep(`${server.pkg}\t${name}`, await run(server, requests));
      const stop = await follow(server.followed);
      await new Promise((r) => setTimeout(r, 200));
      // The stream's cost shows in what each create costs with the followers there.
      keep(`${server.pkg}\tPOST create, ${FOLLOWERS} clients on /events`, await run(server.followed, [CREATE]));
      stop();
    }
    console.log(`round ${round} done (load average ${loadavg()[0].toFixed(2)})`);
  }
} finally {
  for (const { proc, followed } of servers) {
    proc.kill("SIGKILL");
    followed.proc.kill("SIGKILL");
  }
}
console.log("\nbest of the rounds (requests/s at its highest, CPU a request at its lowest):");
for (const [key, runs] of results) {
  const [pkg, name] = key.split("\t");
  const rate = Math.max(...runs.map((r) => r.rate));
  const cpu = Math.min(...runs.map((r) => r.cpu));
  const bad = runs.reduce((n, r) => n + r.bad, 0);
  console.log(`  ${pkg}  ${name.padEnd(40)} ${Math.round(rate).toLocaleString("en").padStart(6)} requests/s, ${cpu.toFixed(1).padStart(7)} µs CPU a request${bad ? `, ${bad} failed` : ""}`);
}
