// Starts `orderpay serve` the way the README says, from the package
// installed into a throwaway app (its `bin`, which is what `npx orderpay`
// runs), and reads the address it prints.
import { spawn } from "node:child_process";
import { join } from "node:path";

import { makeConsumer, root } from "../node/consumer.mjs";

export { root };

let app = null;
/** The throwaway app with the packed package installed, made once per test file. */
export function consumer() {
  app ??= makeConsumer();
  return app;
}

/**
 * Runs `orderpay serve ...args` and resolves once it prints its address:
 * `{ url, origin, proc, output(), exited }`. `command` may replace the
 * bin (["npx", "orderpay"]); `env` is added to the environment.
 */
export function serve(args = [], { command = null, cwd = null, env = {} } = {}) {
  const dir = cwd ?? consumer().dir;
  const [file, ...pre] = command ?? [join(dir, "node_modules", ".bin", "orderpay")];
  // Its own process group, so that a signal reaches the server behind npx too.
  const proc = spawn(file, [...pre, "serve", ...args], {
    cwd: dir,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let out = "";
  const exited = new Promise((resolve) => proc.on("exit", (code, signal) => resolve({ code, signal })));
  proc.stdout.on("data", (d) => (out += d));
  proc.stderr.on("data", (d) => (out += d));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no address printed within 15 s:\n${out}`)), 15_000);
    const look = () => {
      const m = /serving on (http:\/\/[^\s]+?)(\/[^\s]*)?\/api /.exec(out);
      if (m) {
        clearTimeout(timer);
        proc.stdout.off("data", look);
        resolve({ url: m[1] + (m[2] ?? ""), origin: m[1], proc, output: () => out, exited });
      }
    };
    proc.stdout.on("data", look);
    exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(Object.assign(new Error(`exited (${code ?? signal}) before serving:\n${out}`), { code, output: out }));
    });
  });
}

/** Runs `orderpay serve ...args` expecting it to exit at once: `{ code, output }`. */
export function serveFails(args) {
  return serve(args).then(
    (s) => {
      kill(s, "SIGKILL");
      throw new Error(`expected it to fail, but it serves at ${s.url}`);
    },
    (error) => ({ code: error.code, output: error.output ?? error.message }),
  );
}

/** Sends a signal to the server's process group (npx and the server behind it). */
export function kill(server, signal) {
  try {
    process.kill(-server.proc.pid, signal);
  } catch {
    /* already gone */
  }
}

/** Stops a server with a signal and waits for it to exit. */
export async function stop(server, signal = "SIGTERM") {
  if (server.proc.exitCode !== null || server.proc.signalCode !== null) return server.exited;
  kill(server, signal);
  return server.exited;
}

/** fetch, JSON in and out: `{ status, headers, body }`. */
export async function call(url, method = "GET", body, headers = {}) {
  const init = { method, headers: { ...headers } };
  if (body !== undefined) {
    init.body = typeof body === "string" ? body : JSON.stringify(body);
    init.headers["content-type"] ??= "application/json";
  }
  const res = await fetch(url, init);
  const text = await res.text();
  let parsed = text;
  try {
    parsed = JSON.parse(text);
  } catch { /* not JSON: kept as text */ }
  return { status: res.status, headers: Object.fromEntries(res.headers), body: parsed };
}
