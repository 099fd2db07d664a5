// What a Service was asked, in order: its constructor's options, every
// request through the gateway (handle, request, and so createFetch, MSW,
// Playwright and the server), and the calls that change it outside a
// request (advance, setScenario, forceNext, completeChallenge). The core
// is deterministic from its seed, options, calls and the clock's time at
// each call, so this is what exportTest and exportPact replay. Internal:
// the package does not export this file.
//
// The hot path keeps references only: the request's parts as
// request_parts.js made them and the answer's text. Plain steps (headers
// as an object, the envelope's text) are made when the run is read, and
// each read is a copy of its own. A run handed back (resumeRun) is copied
// and checked, step by step, before it replaces the journal.
import { kind } from "./request_parts.js";

/** Steps kept at most; past it the run is incomplete and no test is exported from it. */
export const JOURNAL_BOUND = 10_000;

/** The first byte of handle()'s answer when a network fault lost it. */
const FAULT_MARK = 10;

/** A flat [name, value, ...] list as an object with lower-case names (the last value of a repeated name wins). */
function headersOf(flat) {
  const out = {};
  for (let i = 0; i < flat.length; i += 2) out[flat[i].toLowerCase()] = flat[i + 1];
  return out;
}

/** The body as the caller sent it: text, bytes decoded as UTF-8, or null. */
function bodyOf(parts) {
  if (parts.body !== undefined) return parts.body;
  if (parts.bytes !== undefined) return new TextDecoder().decode(parts.bytes);
  return null;
}

/**
 * handle()'s answer, which has the envelope only: the status is the
 * envelope's code for a refused request and 200 for success and business
 * errors (code 0 and -1); HTML is the challenge page ("" its 303).
 */
function handledAnswer(text) {
  if (text.charCodeAt(0) === FAULT_MARK) return { status: 0, headers: {}, body: "", fault: JSON.parse(text.slice(1)) };
  if (text.charCodeAt(0) === 123) {
    const code = JSON.parse(text).code;
    return { status: code >= 100 ? code : 200, headers: { "content-type": "application/json" }, body: text };
  }
  return { status: text === "" ? 303 : 200, headers: { "content-type": "text/html; charset=utf-8" }, body: text };
}

/**
 * A request's answer from the crossing's text (exchange() in service.js
 * reads it with this too): a head line of status, headers and fault, then
 * the body's text. Each call gives objects of its own.
 */
export function exchangedReply(text) {
  const split = text.indexOf("\n");
  const head = JSON.parse(text.slice(0, split));
  return { status: head.status, headers: head.headers, text: text.slice(split + 1), fault: head.fault };
}

/** One request step as runOf() gives it, made from what was kept. */
function requestStep(kept) {
  const { at, parts } = kept;
  const step = { kind: "request", at, method: parts.method, path: parts.path ?? "", headers: headersOf(parts.headers), body: bodyOf(parts) };
  if (kept.exchanged === undefined) step.answer = handledAnswer(kept.reply);
  else {
    const reply = exchangedReply(kept.exchanged);
    step.answer = { status: reply.status, headers: reply.headers, body: reply.text };
    if (reply.fault !== undefined) step.answer.fault = reply.fault;
  }
  return step;
}

/**
 * One Service's journal. `clock()` reads the service's time for a step:
 * the virtual clock's, or the wall's, which the caller then hands to the
 * crossing so the core and the journal see the same millisecond.
 */
export class RunJournal {
  #options;
  #kept = [];
  #lost = 0;
  #virtual;
  #raw;
  /** Why no test can be exported from this run, or null. */
  refusal = null;
  /** The refusal's kind, the `reason` of wholeRun's error: "restored" unless refuse() said another. */
  reason = "restored";

  /** Refuses every export of this run from now on, with `message` and the error's `reason`. */
  refuse(message, reason) {
    this.refusal = message;
    this.reason = reason;
  }

  /**
   * `given`: the constructor's options as options.js read them, each once
   * (plain data; webhooks are left out: a handler is code); `raw`: the
   * RawService.
   */
  constructor(given, raw) {
    this.#raw = raw;
    this.#virtual = raw.virtualClock();
    this.#options = { ...given, seed: raw.seed(), virtualTime: raw.now() };
  }

  /** The service's time now: what a step is stamped with. */
  clock() {
    return this.#virtual ? this.#raw.now() : Date.now();
  }

  /** The wall clock's ms to hand the core with a request stamped `at`: `at` itself on the wall clock. */
  wall(at) {
    return this.#virtual ? Date.now() : at;
  }

  /**
   * A journal that continues `given` (as read() gave it) on a restored
   * RawService; `refusal` stays when the run began at a restore. The run
   * is copied and checked first: a TypeError naming the field leaves the
   * service as it was.
   */
  static resumed(given, raw, refusal) {
    const run = plainRun(given);
    const journal = new RunJournal({}, raw);
    // Another service's run would replay to other ids: refused now, not at the export.
    const clock = journal.#virtual ? "virtual" : "wall";
    if (run.options.seed !== raw.seed() || run.clock !== clock) {
      throw new TypeError(`run: it is of a service with seed ${run.options.seed} on a ${run.clock} clock, and this one has seed ${raw.seed()} on a ${clock} clock: give the run this snapshot was saved with`);
    }
    journal.#options = run.options;
    journal.#kept = run.steps.slice(0, JOURNAL_BOUND);
    journal.#lost = (run.lost ?? 0) + Math.max(0, run.steps.length - JOURNAL_BOUND);
    if (run.restored === true) journal.refusal = refusal;
    return journal;
  }

  /** How many calls reached the service since the journal began, kept or not. */
  calls = 0;

  #keep(entry) {
    this.calls += 1;
    // A refused run (a restore's) can never be exported: nothing is held for it.
    if (this.refusal !== null) return;
    if (this.#kept.length < JOURNAL_BOUND) this.#kept.push(entry);
    else this.#lost += 1;
  }

  /**
   * A request through request()/exchange(): `text` is the crossing's
   * answer, read at read() (the objects made of it now are the caller's).
   */
  request(at, parts, text) {
    this.#keep({ at, parts, exchanged: text });
  }

  /** A request through handle(): `text` is the answer as the core wrote it. */
  handled(at, parts, text) {
    this.#keep({ at, parts, reply: text });
  }

  /** advance(ms), setScenario(scenario), forceNext(outcome, count), completeChallenge(paymentId, outcome). */
  call(step) {
    this.#keep(step);
  }

  /** How many steps came past the bound and were not kept. */
  get lost() {
    return this.#lost;
  }

  /** The run as plain data: see runOf() in service.js. */
  read() {
    // Each read a copy of its own: what the caller does to it is not the journal's.
    const steps = this.#kept.map((kept) => (kept.parts !== undefined ? requestStep(kept) : structuredClone(kept)));
    const clock = this.#virtual ? "virtual" : "wall";
    const run = { options: structuredClone(this.#options), clock, steps, lost: this.#lost, bound: JOURNAL_BOUND };
    // A restore's run starts at the snapshot: it says so, and stays refused when resumed.
    if (this.refusal !== null) run.restored = true;
    return run;
  }
}

/**
 * Throws when `run` cannot be replayed exactly: steps were lost past the
 * bound, or the service has no journal from its start (a restore, whose
 * error has the reason "restored"), or its journal was refused (refuse(),
 * with its own reason, and the refusal's text alone as `refusal`). The
 * message begins with `method`, the export that asked (exportTest,
 * exportPact).
 */
export function wholeRun(run, refusal, method, reason = "restored") {
  if (refusal) throw Object.assign(new Error(`${method}: ${refusal}`), { reason, refusal });
  if (run.lost > 0) {
    throw new RangeError(
      `${method}: this run has more than ${JOURNAL_BOUND} steps (the journal keeps the first ${JOURNAL_BOUND}; ${run.lost} more were not kept), so no exact test can be made of it: export shorter runs, or start a new Service for each story`,
    );
  }
  return run;
}

/** A step's field's type: how its error names it, and its test. */
const TYPES = {
  string: ["a string", (v) => typeof v === "string"],
  number: ["a number", (v) => typeof v === "number"],
  text: ["a string or null", (v) => v === null || typeof v === "string"],
  object: ["an object", (v) => kind(v) === "object"],
  scenario: ["a scenario document, its text, a preset's name or null", (v) => v === null || typeof v === "string" || kind(v) === "object"],
  fault: ["an object", (v) => v === undefined || v === null || kind(v) === "object"],
};

/** The fields of each kind of step, and of a request's answer, as read() writes them. */
const STEPS = {
  request: { at: "number", method: "string", path: "string", headers: "object", body: "text", answer: "object" },
  advance: { at: "number", ms: "number" },
  scenario: { at: "number", scenario: "scenario" },
  force: { at: "number", outcome: "string", count: "number" },
  challenge: { at: "number", paymentId: "string", outcome: "string" },
};
const ANSWER = { status: "number", headers: "object", body: "string", fault: "fault" };

/** Throws a TypeError naming the first of `fields` of `value` (at `where`) that is not of its type. */
function checkFields(value, fields, where) {
  for (const [name, type] of Object.entries(fields)) {
    const [expected, test] = TYPES[type];
    if (!test(value[name])) throw new TypeError(`${where}.${name}: expected ${expected}, got ${kind(value[name])}`);
  }
}

function checkHeaders(headers, where) {
  for (const [name, value] of Object.entries(headers)) {
    if (typeof value !== "string") throw new TypeError(`${where}[${JSON.stringify(name)}]: expected a string, got ${kind(value)}`);
  }
}

/** Throws a TypeError naming what of `step` (the run's `i`th) is not as read() writes it. */
function checkStep(step, i) {
  const where = `run.steps[${i}]`;
  if (kind(step) !== "object") throw new TypeError(`${where}: expected a step such as { kind: "advance", at: 0, ms: 10 }, got ${kind(step)}`);
  if (typeof step.kind !== "string" || !Object.hasOwn(STEPS, step.kind)) {
    throw new TypeError(`${where}.kind: expected one of ${Object.keys(STEPS).join(", ")}, got ${typeof step.kind === "string" ? JSON.stringify(step.kind) : kind(step.kind)}`);
  }
  checkFields(step, STEPS[step.kind], where);
  if (step.kind !== "request") return;
  checkHeaders(step.headers, `${where}.headers`);
  checkFields(step.answer, ANSWER, `${where}.answer`);
  checkHeaders(step.answer.headers, `${where}.answer.headers`);
}

/**
 * `given` as plain data of its own (a JSON copy: no getter, Proxy or
 * shared object of the caller's stays in the journal), each step checked:
 * a TypeError names the first field that is not as service.run() gives it.
 */
function plainRun(given) {
  let run;
  try {
    const text = JSON.stringify(given);
    run = text === undefined ? undefined : JSON.parse(text);
  } catch (error) {
    throw new TypeError("run: expected plain data as service.run() gives it", { cause: error });
  }
  if (kind(run) !== "object" || !Array.isArray(run.steps) || kind(run.options) !== "object") {
    throw new TypeError("run: expected what service.run() returned, { options, clock, steps }");
  }
  if (run.lost !== undefined && typeof run.lost !== "number") throw new TypeError(`run.lost: expected a number, got ${kind(run.lost)}`);
  run.steps.forEach(checkStep);
  return run;
}
