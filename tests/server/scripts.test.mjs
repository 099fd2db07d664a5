// `orderpay serve` as a script or a CI job starts it, through `npx` from
// the packed package: the address --port 0 picked in --ready-file, ready
// once the file is there, and stopped the ways docs/server.md gives
// ("In scripts and CI"), after which no process of it is left, the port
// is free and the file is gone. A stop the moment the file appears is
// held without a race: at-ready.mjs, loaded into the server, acts then.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { test } from "node:test";

import { shellBlocks } from "../docs.mjs";
import { call, consumer, serve, stop } from "./serve.mjs";

const NPX = ["npx", "--no-install", "orderpay"];

/** The environment that has at-ready.mjs do `action` the moment `file` appears. */
const atReady = (action, file) => ({
  NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --import=${new URL("./at-ready.mjs", import.meta.url).href}`.trim(),
  ORDERPAY_AT_READY: action,
  ORDERPAY_READY_FILE: file,
});

/** Whether process `pid` is gone (a zombie waiting for init counts as gone: it holds no port). */
function gone(pid) {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if (error.code === "ESRCH") return true;
    throw error;
  }
  try {
    return /^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return true;
  }
}

/**
 * Waits for `pid` to be gone. The server stops on its own once told; the
 * bound only keeps a broken stop from hanging the suite.
 */
async function waitGone(pid, what) {
  for (let i = 0; i < 600 && !gone(pid); i++) await new Promise((r) => setTimeout(r, 50));
  if (!gone(pid)) {
    process.kill(pid, "SIGKILL");
    assert.fail(`${what}: the server (pid ${pid}) was still running`);
  }
}

/** Whether nothing listens on 127.0.0.1:port: it can be listened on again. */
function portFree(port) {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once("error", () => resolve(false));
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(true)));
  });
}

const readJson = (file) => JSON.parse(readFileSync(file, "utf8"));

test("--ready-file: written whole before the address is printed, an old one replaced, removed at the stop", async () => {
  const file = join(consumer().dir, "ready-stale.json");
  writeFileSync(file, JSON.stringify({ url: "http://127.0.0.1:1", port: 1, pid: 1 }));
  const server = await serve(["--port", "0", "--base", "/shop", "--ready-file", file]);
  try {
    const ready = readJson(file);
    const { port } = new URL(server.origin);
    assert.deepEqual(ready, {
      url: server.origin,
      port: Number(port),
      host: "127.0.0.1",
      base: "/shop",
      api: `${server.origin}/shop/api`,
      admin: `${server.origin}/__orderpay`,
      pid: server.proc.pid,
    });
    // The file there means the server answers.
    assert.equal((await call(`${ready.admin}/health`)).status, 200);
  } finally {
    assert.deepEqual(await stop(server, "SIGHUP"), { code: 0, signal: null }, "SIGHUP is a graceful stop");
  }
  assert.match(server.output(), /orderpay: SIGHUP: finishing the requests in flight/);
  assert.equal(existsSync(file), false, "removed at the stop");
});

test("SIGTERM to npx alone: --exit-with-parent stops the server its shell left behind", async () => {
  const file = join(consumer().dir, "ready-npx.json");
  const server = await serve(["--port", "0", "--ready-file", file, "--exit-with-parent"], { command: NPX });
  const ready = readJson(file);
  assert.notEqual(ready.pid, server.proc.pid, "npx runs the server in a process of its own");
  // To npx only, as `kill $!` after `npx orderpay serve &` sends it.
  process.kill(server.proc.pid, "SIGTERM");
  await server.exited;
  await waitGone(ready.pid, "after npx's SIGTERM");
  assert.match(server.output(), /orderpay: the process that started it \(pid \d+\) exited: finishing the requests in flight/);
  assert.ok(await portFree(ready.port), "the port is free");
  assert.equal(existsSync(file), false, "the ready file is removed");
});

test("a SIGTERM the moment the ready file appears is a graceful stop: the handlers are in place before it", async () => {
  const file = join(consumer().dir, "ready-sigterm.json");
  const server = await serve(["--port", "0", "--ready-file", file], { env: atReady("sigterm", file) });
  assert.deepEqual(await server.exited, { code: 0, signal: null }, server.output());
  assert.match(server.output(), /orderpay: SIGTERM: finishing the requests in flight[\s\S]*orderpay: stopped/);
  assert.equal(existsSync(file), false, "the ready file is removed");
});

test("--exit-with-parent: a parent killed the moment the ready file appears still stops the server", async () => {
  const { dir } = consumer();
  const file = join(dir, "ready-orphan.json");
  const bin = join(dir, "node_modules", ".bin", "orderpay");
  // The parent: a shell that starts the server, says its pid and waits, as npx's shell does.
  const shell = spawn("sh", ["-c", '"$0" serve --port 0 --ready-file "$1" --exit-with-parent & echo "$!"; wait', bin, file], {
    cwd: dir,
    env: { ...process.env, ...atReady("kill-parent", file) },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let out = "";
  shell.stdout.on("data", (d) => (out += d));
  shell.stderr.on("data", (d) => (out += d));
  const closed = new Promise((resolve) => shell.on("close", resolve));
  const killed = await new Promise((resolve) => shell.on("exit", (code, signal) => resolve(signal)));
  assert.equal(killed, "SIGKILL", `the shell was killed at readiness:\n${out}`);
  const pid = Number(/^(\d+)$/m.exec(out)?.[1]);
  await waitGone(pid, "after its parent was killed at readiness");
  await closed;
  assert.match(out, new RegExp(`orderpay: the process that started it \\(pid ${shell.pid}\\) exited: finishing the requests in flight[\\s\\S]*orderpay: stopped`));
  assert.equal(existsSync(file), false, "the ready file is removed");
});

test("docs/server.md's script for CI runs as written: ready, answered, stopped with nothing left", async () => {
  const [block] = shellBlocks("ci");
  const script = spawn("bash", ["-c", block], { cwd: consumer().dir, stdio: ["ignore", "pipe", "pipe"], detached: true });
  let out = "";
  script.stdout.on("data", (d) => (out += d));
  script.stderr.on("data", (d) => (out += d));
  const code = await new Promise((resolve) => script.on("exit", (c) => resolve(c)));
  assert.equal(code, 0, out);
  const ready = JSON.parse(/^\{"url".*\}$/m.exec(out)?.[0] ?? "null");
  assert.ok(ready, `the ready file was printed:\n${out}`);
  assert.match(out, /"status":"ok"/, "the health check answered");
  assert.match(out, /orderpay: SIGTERM: finishing the requests in flight[\s\S]*orderpay: stopped/);
  await waitGone(ready.pid, "after the script");
  assert.ok(await portFree(ready.port), "the port is free");
  assert.equal(existsSync(join(consumer().dir, "orderpay.json")), false, "the ready file is removed");
});
