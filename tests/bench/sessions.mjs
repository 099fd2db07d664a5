// Throughput of `orderpay serve` against the floor of this machine, and
// what sessions cost. autocannon on 127.0.0.1, bounded in time, sends
// POST /api/order/create over 10 connections to
//   - the floor: a bare node:http server answering a fixed order envelope,
//   - orderpay serve, the default session (no session named),
//   - orderpay serve, one named session (X-Orderpay-Session),
//   - orderpay serve, 100 named sessions in turn,
// each in its own process, in rounds (each target once a round, so that
// the machine's drift touches all alike). Per run it prints requests/s,
// p99, the server's CPU time per request (from /proc: what the server
// spends, whatever else the machine runs) and the load average; then the
// best of the rounds. Last, the resident memory of a fresh server holding
// 1,000 sessions of 100 orders each. Prints numbers; tests nothing.
//
// Run: node tests/bench/sessions.mjs [seconds per run, default 5] [rounds, default 3]
// Needs the built package (pkg/) and tests/server's tooling (.ci/lib.sh).
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { loadavg } from "node:os";
import { join } from "node:path";

const root = new URL("../..", import.meta.url).pathname;
const require = createRequire(join(root, "tests", "server", "package.json"));
const autocannon = require("autocannon");

const SECONDS = Number(process.argv[2] ?? 5);
const ROUNDS = Number(process.argv[3] ?? 3);
const CONNECTIONS = 10;
const BODY = JSON.stringify({ userId: "bench", price: 9.9, description: "load" });
const HEADERS = { "content-type": "application/json" };
/** The floor: node:http answering a fixed order envelope to POST /api/order/create, the body read first. */
const FLOOR = `
import { createServer } from "node:http";
const text = JSON.stringify({ code: 0, msg: "success", data: { orderId: "ORD-7K2M9QXA", userId: "bench", price: 9.9,
  status: "CREATED", description: "load", createdAt: 1767225600000 } });
const server = createServer({ keepAliveTimeout: 5000 }, (req, res) => {
  if (req.method !== "POST" || req.url !== "/api/order/create") return res.writeHead(404).end();
  req.resume();
  req.on("end", () => {
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
    res.end(text);
  });
});
server.listen(0, "127.0.0.1", () => console.log("serving on http://127.0.0.1:" + server.address().port + "/api (floor)"));
`;

/** Starts a server process and resolves with { url, proc } once it prints its address. */
function start(args) {
  const proc = spawn(process.execPath, args, { stdio: ["pipe", "pipe", "inherit"] });
  let out = "";
  return new Promise((resolve, reject) => {
    proc.stdout.on("data", (d) => {
      out += d;
      const m = /serving on (http:\/\/[^\s]+?)\/api/.exec(out);
      if (m) resolve({ url: m[1], proc });
    });
    proc.on("exit", (code) => reject(new Error(`exited ${code}: ${out}`)));
  });
}

const orderpay = (extra = []) => start([join(root, "pkg", "server", "cli.js"), "serve", "--port", "0", "--seed", "1", ...extra]);

async function stopServer({ proc }) {
  const exited = new Promise((resolve) => proc.once("exit", resolve));
  proc.kill("SIGKILL");
  await exited;
}

/**
 * One autocannon run of POST /api/order/create. `sessions`: the session
 * names the requests go to in turn (none: the default session). The
 * requests are made once, before the run, so the client spends nothing
 * per request on them.
 */
function load(url, { seconds = SECONDS, amount, sessions = [] } = {}) {
  const requests = (sessions.length ? sessions : [null]).map((name) => ({
    method: "POST",
    path: "/api/order/create",
    headers: name === null ? HEADERS : { ...HEADERS, "x-orderpay-session": name },
    body: BODY,
  }));
  return autocannon({ url, connections: CONNECTIONS, ...(amount ? { amount } : { duration: seconds }), requests });
}

const load1 = () => loadavg()[0].toFixed(2);
const mib = (kib) => (kib / 1024).toFixed(1);

/** Resident memory of a process, in KiB. */
function rssKib(pid) {
  return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))[1]);
}

/** CPU time a process has spent, user and system, in µs. */
function cpuMicros(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

/** One run against one target: { rate, p99, cpu (µs a request), load, bad }. */
async function run(target) {
  const before = cpuMicros(target.server.proc.pid);
  const result = await load(target.server.url, { sessions: target.sessions });
  const cpu = (cpuMicros(target.server.proc.pid) - before) / result.requests.total;
  return {
    rate: result.requests.average,
    p99: result.latency.p99,
    cpu,
    load: load1(),
    bad: result.non2xx + result.errors + result.timeouts,
  };
}

const fmt = (r) =>
  `${Math.round(r.rate).toLocaleString("en").padStart(6)} requests/s, p99 ${r.p99} ms, ${r.cpu.toFixed(1)} µs CPU a request` +
  `${r.bad ? `, ${r.bad} not 2xx or failed` : ""} (load average ${r.load})`;

const TARGETS = [
  { name: "floor (bare node:http)", start: () => start(["--input-type=module", "-e", FLOOR]), sessions: [] },
  { name: "orderpay serve, default session", start: () => orderpay(), sessions: [] },
  { name: "orderpay serve, 1 named session", start: () => orderpay(), sessions: ["s0"] },
  { name: "orderpay serve, 100 sessions", start: () => orderpay(), sessions: Array.from({ length: 100 }, (_, i) => `s${i}`) },
];

async function throughput() {
  for (const target of TARGETS) {
    target.server = await target.start();
    // Warm-up: the JIT, and the sessions made.
    await load(target.server.url, { amount: 5000, sessions: target.sessions });
    target.runs = [];
  }
  try {
    for (let round = 1; round <= ROUNDS; round++) {
      for (const target of TARGETS) {
        const r = await run(target);
        target.runs.push(r);
        console.log(`round ${round}  ${target.name.padEnd(32)} ${fmt(r)}`);
      }
    }
  } finally {
    for (const target of TARGETS) await stopServer(target.server);
  }
  const best = (t) => t.runs.reduce((a, b) => (b.rate > a.rate ? b : a));
  const leanest = (t) => Math.min(...t.runs.map((r) => r.cpu));
  const [floorTarget] = TARGETS;
  console.log(`\nbest of ${ROUNDS} rounds (requests/s, and CPU a request at its lowest):`);
  for (const target of TARGETS) {
    const b = best(target);
    const ratio = target === floorTarget ? "" : `, ${(b.rate / best(floorTarget).rate).toFixed(2)} of the floor's rate, ` +
      `${(leanest(floorTarget) / leanest(target)).toFixed(2)} of its CPU economy`;
    console.log(`  ${target.name.padEnd(32)} ${fmt({ ...b, cpu: leanest(target) })}${ratio}`);
  }
}

async function memory() {
  const server = await orderpay(["--max-sessions", "1000"]);
  try {
    const before = rssKib(server.proc.pid);
    const result = await load(server.url, { amount: 100_000, sessions: Array.from({ length: 1000 }, (_, i) => `s${i}`) });
    const sessions = (await (await fetch(`${server.url}/__orderpay/sessions`)).json()).data.sessions;
    const orders = sessions.reduce((n, s) => n + s.ordersCreated, 0);
    const after = rssKib(server.proc.pid);
    console.log(
      `\n1,000 sessions x 100 orders: RSS ${mib(after)} MiB (${mib(before)} MiB at start); ${sessions.length - 1} sessions, ` +
        `${orders.toLocaleString("en")} orders, ${result.non2xx + result.errors} failed (load average ${load1()})`,
    );
  } finally {
    await stopServer(server);
  }
}

console.log(`orderpay serve against the floor: POST /api/order/create, ${CONNECTIONS} connections, ${SECONDS} s a run, Node ${process.version}`);
await throughput();
await memory();
