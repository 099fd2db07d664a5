// The sessions of one server: a Service each, so that parallel test
// workers never see one another's orders, log, clock or forced outcomes.
// The default session is the server's own context (today's behaviour); a
// named one is made on first use, with a seed drawn from the server's seed
// and its name, so the same name gives the same ids run after run. They are
// bounded in number (--max-sessions), end when idle (--session-idle), and
// with --state each is kept in its own file beside the default one's.
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";

import { DueTimer } from "./due_timer.js";
import { LogEvents } from "./events.js";
import { Instance } from "./instance.js";
import { DEFAULT_SESSION, nameProblem } from "./session_name.js";
import { StateFile } from "./state.js";

/** A session that cannot be had: `status` and a msg naming the session and why. */
export class SessionRefused extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

/** The seed of session `name` on a server seeded `seed`: 48 bits of SHA-256 over both. */
export function sessionSeed(seed, name) {
  return createHash("sha256").update(`${seed}/${name}`).digest().readUIntBE(0, 6);
}

/** Where the named sessions of `--state FILE` are kept: one file each, NAME.json. */
export function sessionsDir(statePath) {
  return `${statePath}.sessions`;
}

/**
 * The saved sessions of `--state FILE`, name to the Service restored from
 * its file, as the default one is. Throws a StateError naming a file it cannot use.
 */
export function loadSessions(statePath) {
  const dir = sessionsDir(statePath);
  const saved = new Map();
  let files;
  try {
    files = readdirSync(dir);
  } catch {
    return saved;
  }
  for (const file of files.sort()) {
    const name = file.endsWith(".json") ? file.slice(0, -5) : "";
    if (nameProblem(name) !== null || name === DEFAULT_SESSION) continue;
    const restored = StateFile.load(join(dir, file));
    if (restored !== null) saved.set(name, restored);
  }
  return saved;
}

/** What the sessions list says of one session. */
function summary(name, ctx, idleMs) {
  const service = ctx.instance.service;
  const counters = service.counters();
  const created = counters.byRoute.filter((r) => r.route === "/api/order/create" && r.code === 0);
  const { attempts, approved, declined } = counters.payments;
  return {
    name,
    requests: counters.requests,
    ordersCreated: created.reduce((n, r) => n + r.count, 0),
    payments: { attempts, approved, declined },
    forced: service.forced,
    droppedLogs: service.droppedLogs,
    generation: ctx.instance.generation,
    idleMs: Math.round(idleMs),
  };
}

export class Sessions {
  #server;
  #named = new Map();
  #options;
  #sweeper = null;

  /**
   * `server`: the server's context, the default session's. `options`:
   * maxSessions, idleMs (0: never), serviceOptions, seed (the server's),
   * statePath (or null), saved (name to restored Service), routesFor(ctx)
   * (the admin routes of a session's context) and log(line).
   */
  constructor(server, options) {
    this.#server = server;
    this.#options = options;
    server.session = DEFAULT_SESSION;
    if (options.statePath) mkdirSync(sessionsDir(options.statePath), { recursive: true });
    for (const [name, restored] of options.saved ?? []) this.#create(name, restored);
    if (options.idleMs > 0) {
      this.#sweeper = setInterval(() => this.#sweep(), Math.max(50, Math.min(options.idleMs / 4, 30_000)));
      this.#sweeper.unref();
    }
  }

  /** --max-sessions and --session-idle, in ms. */
  get limits() {
    return { maxSessions: this.#options.maxSessions, idleMs: this.#options.idleMs };
  }

  get size() {
    return this.#named.size;
  }

  /**
   * The context of session `name` (null: the default), made on first use.
   * Throws a SessionRefused past --max-sessions.
   */
  ctxOf(name) {
    if (name === null || name === DEFAULT_SESSION) return this.#server;
    let session = this.#named.get(name);
    if (session === undefined) {
      if (this.#named.size >= this.#options.maxSessions) {
        throw new SessionRefused(
          503,
          `session ${JSON.stringify(name)}: not made, the server holds the most sessions it takes (--max-sessions ${this.#options.maxSessions}); ` +
            "end one with DELETE /__orderpay/sessions/NAME, or start the server with a larger --max-sessions",
        );
      }
      session = this.#create(name, null);
      session.ctx.state?.touch();
    }
    session.used = performance.now();
    return session.ctx;
  }

  /** Whether session `name` exists (the default always does). */
  has(name) {
    return name === DEFAULT_SESSION || this.#named.has(name);
  }

  #create(name, restored) {
    const { serviceOptions, seed, statePath, routesFor } = this.#options;
    const instance = new Instance({ ...serviceOptions, seed: sessionSeed(seed, name) }, restored);
    const ctx = Object.create(this.#server);
    ctx.session = name;
    ctx.instance = instance;
    ctx.events = new LogEvents(instance);
    ctx.state = statePath ? new StateFile(join(sessionsDir(statePath), `${name}.json`), () => instance.service.snapshot()) : null;
    ctx.changed = () => {
      ctx.state?.touch();
      ctx.events.changed();
      ctx.due.arm();
    };
    instance.attempted = () => ctx.changed();
    ctx.due = new DueTimer(instance, ctx.changed);
    ctx.due.arm();
    ctx.adminRoutes = routesFor(ctx);
    const session = { ctx, used: performance.now() };
    this.#named.set(name, session);
    return session;
  }

  /** Ends session `name`: its service, its event streams and its saved file. False when there is none. */
  end(name, why = null) {
    const session = this.#named.get(name);
    if (session === undefined) return false;
    this.#named.delete(name);
    session.ctx.events.end();
    session.ctx.due.stop();
    session.ctx.state?.discard();
    session.ctx.instance.service.free();
    if (why) this.#options.log(`orderpay: session ${JSON.stringify(name)} ended: ${why}`);
    return true;
  }

  #sweep() {
    const now = performance.now();
    const idle = this.#options.idleMs;
    for (const [name, session] of this.#named) {
      if (now - session.used >= idle) this.end(name, `idle for ${Math.round((now - session.used) / 1000)} s (--session-idle ${idle} ms)`);
    }
  }

  /** Every session, the default first, with its counts. */
  list() {
    const now = performance.now();
    const all = [summary(DEFAULT_SESSION, this.#server, 0)];
    for (const [name, session] of this.#named) all.push(summary(name, session.ctx, now - session.used));
    return all;
  }

  /** One session's summary, or null when there is none. */
  describe(name) {
    if (name === DEFAULT_SESSION) return summary(name, this.#server, 0);
    const session = this.#named.get(name);
    return session === undefined ? null : summary(name, session.ctx, performance.now() - session.used);
  }

  /** Writes every named session whose change is not on disk yet (on the way out). */
  async flush() {
    for (const { ctx } of this.#named.values()) {
      if (ctx.state?.pending) await ctx.state.flush();
    }
  }

  /** The server stops: no more sweeps, and every session's event streams end. */
  close() {
    clearInterval(this.#sweeper);
    for (const { ctx } of this.#named.values()) {
      ctx.events.end();
      ctx.due.stop();
    }
  }
}
