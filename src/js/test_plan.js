// A run (runOf in service.js) as the plan of a test: the options to start
// a service with, and each step with the clock's move before it and what
// to check of its answer. The one place that decides what a copied test
// does and asserts; export_vitest.js, export_playwright.js and
// export_curl.js only write it in their syntax. Internal: the package does
// not export this file.
//
// The plan is checked by replaying the run on a fresh service first: a
// step whose replay answers otherwise than the run did stops the export
// with an error, rather than give a test that would fail.

/** Latency that takes no time: a replay of a wall-clock run moves its virtual clock only by the gaps between steps. */
const NO_WAIT = { baseMs: 0, spreadMs: 0, tailChance: 0, tailMs: 0 };
const NO_LATENCY = { order: NO_WAIT, payment: NO_WAIT, thirdParty: NO_WAIT, test: NO_WAIT };

/** Faults in which the connection is lost: fetch rejects, curl exits with an error. */
export const LOST = new Set(["reset", "error", "empty", "hang"]);

/**
 * Headers a copied request sends again: those the service reads. A
 * browser's own (origin, cookie...) and the session's are left out. A body
 * sent with no Content-Type, which the service reads as JSON, is copied
 * as application/json: fetch would label the string text/plain, and curl
 * as a form, which the service refuses with a 415.
 */
function sent(headers, body) {
  const out = {};
  for (const [name, value] of Object.entries(headers)) {
    if (name === "x-orderpay-session") continue;
    if (name === "content-type" || name === "idempotency-key" || name.startsWith("x-") || name === "traceparent" || name === "tracestate" || name === "b3") out[name] = value;
  }
  if (body !== null && body !== undefined && out["content-type"] === undefined) out["content-type"] = "application/json";
  return out;
}

/** The options a copied test starts its service with: the run's, on a virtual clock from the run's start. */
export function startOptions(run) {
  const options = { ...run.options };
  if (run.clock !== "virtual") options.latency = NO_LATENCY;
  return options;
}

/**
 * The answer headers a copied test checks, and the only ones factsOf
 * reads: the playground saves just these of each answer with its run
 * (www/store.js imports this list).
 */
export const CHECKED_HEADERS = Object.freeze(["content-type", "x-orderpay-decline-code", "idempotent-replayed"]);
const [CONTENT_TYPE, DECLINE_CODE, REPLAYED] = CHECKED_HEADERS;

/**
 * What a page shows of an answer, and so what a copied test checks:
 * the status, the envelope's code and message, the order's or payment's
 * id and status, a failed payment's failureCode, a decline's code, an idempotent replay, the challenge
 * page's HTML, or the network fault.
 */
export function factsOf(answer) {
  const facts = { status: answer.status };
  const fault = answer.fault;
  if (fault?.kind === "network") {
    facts.network = fault.fault;
    if (LOST.has(fault.fault) || answer.status === 0) return facts;
  }
  const headers = answer.headers;
  if ((headers[CONTENT_TYPE] ?? "").startsWith("text/html")) {
    facts.html = true;
    return facts;
  }
  if (answer.body.charCodeAt(0) !== 123) return facts;
  const envelope = JSON.parse(answer.body);
  facts.code = envelope.code;
  facts.msg = envelope.msg;
  const data = envelope.data;
  if (data !== null && typeof data === "object") {
    for (const key of ["orderId", "paymentId"]) if (typeof data[key] === "string") facts[key] = data[key];
    if (typeof data.status === "string") facts.dataStatus = data.status;
    if (typeof data.failureCode === "string") facts.failureCode = data.failureCode;
  }
  if (headers[DECLINE_CODE] !== undefined) facts.declineCode = headers[DECLINE_CODE];
  if (headers[REPLAYED] === "true") facts.replayed = true;
  return facts;
}

const COMPARED = ["status", "network", "code", "msg", "orderId", "paymentId", "dataStatus", "failureCode", "html"];

/** The first fact the replay answers otherwise than the run did, or null. */
function differs(was, now) {
  for (const key of COMPARED) {
    if (was[key] !== undefined && was[key] !== now[key]) return `${key} ${JSON.stringify(now[key])} where the run had ${JSON.stringify(was[key])}`;
  }
  return null;
}

/**
 * The log's last record's seq, reading only those after `seq`: where a
 * clock move's records will start.
 */
function lastSeq(service, seq) {
  const records = service.logs(seq);
  return records.length === 0 ? seq : records[records.length - 1].seq;
}

/**
 * What a clock move changed, as the page shows it: the payments' changes
 * the log recorded after record `after`, each "paymentId from → to".
 */
function changesAfter(service, after) {
  return service.logs(after).filter((record) => record.stage === "payment").map((record) => `${record.paymentId} ${record.from} → ${record.to}`);
}

/** Moves `service`'s clock by `ms` and gives what the move changed: `{ after, changes }`. */
function move(service, ms, seq) {
  const after = lastSeq(service, seq);
  service.advance(ms);
  return { after, changes: changesAfter(service, after) };
}

/** One step replayed on `service`; returns the plan's step. `seq`: a log record's seq at or before the log's end. */
function replayStep(service, step, virtual, seq) {
  switch (step.kind) {
    case "request": {
      const headers = sent(step.headers, step.body);
      const answer = service.request(step.method, step.path, step.body, headers);
      const facts = factsOf({ ...answer, body: typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body) });
      const off = differs(factsOf(step.answer), facts);
      if (off !== null) throw new Error(`its answer has ${off}`);
      return { kind: "request", method: step.method, path: step.path, headers, body: step.body, facts };
    }
    case "advance": {
      // A wall clock ignored the ms: the gaps carry its time instead.
      const ms = virtual ? step.ms : 0;
      return { kind: "advance", ms, moved: move(service, ms, seq) };
    }
    case "scenario":
      service.setScenario(step.scenario);
      return { kind: "scenario", scenario: step.scenario };
    case "force":
      service.forceNext(step.outcome, step.count);
      return { kind: "force", outcome: step.outcome, count: step.count };
    case "challenge": {
      const payment = service.completeChallenge(step.paymentId, step.outcome);
      const checked = { status: payment.status };
      if (typeof payment.failureCode === "string") checked.failureCode = payment.failureCode;
      return { kind: "challenge", paymentId: step.paymentId, outcome: step.outcome, payment: checked };
    }
    default:
      throw new Error(`unknown step kind ${JSON.stringify(step.kind)}`);
  }
}

/** What a step is, for the error that names it. */
function stepName(step, i) {
  return `step ${i + 1} (${step.kind === "request" ? `${step.method} ${step.path}` : step.kind})`;
}

/**
 * The plan of `run`: `{ options, clock, steps }`, each step with `wait`,
 * the ms the clock moves before it (0 mostly; the gaps of a wall-clock
 * run), and `waited`, what that move changed (`{ after, changes }`). A
 * clock move's changes are the replay's, so a copy checks what the run's
 * move did. `make(options)` makes the Service the replay runs on.
 */
export function planOf(run, make) {
  const options = startOptions(run);
  const service = make(options);
  const virtual = run.clock === "virtual";
  const steps = [];
  let seq = 0;
  try {
    run.steps.forEach((step, i) => {
      const wait = Math.max(0, step.at - service.now);
      const waited = wait > 0 ? move(service, wait, seq) : null;
      if (waited !== null) seq = waited.after;
      try {
        const planned = replayStep(service, step, virtual, seq);
        if (planned.moved !== undefined) seq = planned.moved.after;
        steps.push({ wait, waited, ...planned });
      } catch (error) {
        throw new Error(`exportTest: replaying ${stepName(step, i)} on a fresh service: ${error.message}; no test is exported that would fail`, { cause: error });
      }
    });
  } finally {
    service.free();
  }
  return { options, clock: run.clock, steps };
}

/**
 * What a step is, for the comment that numbers it, the same in every
 * format: the request's method and path, or the call on the service (a
 * scenario of its own shown as {…}). Comment-safe: run text goes through
 * commentText or js, which escape every line end.
 */
export function stepTitle(step) {
  switch (step.kind) {
    case "request":
      return commentText(`${step.method} ${step.path}`);
    case "advance":
      return `advance(${js(step.ms)})`;
    case "scenario":
      return `setScenario(${step.scenario !== null && typeof step.scenario === "object" ? "{…}" : js(step.scenario)})`;
    case "force":
      return `forceNext(${js(step.outcome)}, ${js(step.count)})`;
    case "challenge":
      return `completeChallenge(${js(step.paymentId)}, ${js(step.outcome)})`;
    default:
      return commentText(step.kind);
  }
}

/** The sentence of a copy's header that says which clock the run was on and how the copy keeps its time. */
export function clockNote(plan) {
  return plan.clock === "virtual"
    ? "The run was on a virtual clock: this copy replays it on a virtual clock from the run's start."
    : "The run was on the wall clock: this copy runs on a virtual clock from the run's start and moves it by the time between the steps.";
}

/** A value as JS source: its JSON, with U+2028 and U+2029 escaped as well (parsers older than ES2019 end a line at them). */
export const js = (value) => (JSON.stringify(value) ?? "undefined").replace(/[\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`);

/**
 * Text of the run (a method, a path) for a comment of a copied test, JS's
 * `//` or the shell's `#`: escaped as in a JS string, so that no line
 * break, U+2028 or U+2029 in it can end the comment and leave the rest
 * of the text to run as code. The one way run text reaches a comment.
 */
export const commentText = (text) => js(String(text)).slice(1, -1);

/**
 * The JS checks of one answer's facts, on a `reply` of `{ status, type,
 * headers, body }` (body: the envelope, or null): each an expect() line.
 * `redirects`: how the runner shows a 3xx (its status, or "opaqueredirect").
 */
export function jsChecks(facts, redirects) {
  const out = [];
  if (facts.status >= 300 && facts.status < 400 && redirects === "opaqueredirect") out.push(`expect(reply.type).toBe("opaqueredirect");`);
  else out.push(`expect(reply.status).toBe(${js(facts.status)});`);
  if (facts.html) out.push(`expect(reply.headers["content-type"]).toContain("text/html");`);
  if (facts.code !== undefined) out.push(`expect(reply.body.code).toBe(${js(facts.code)});`, `expect(reply.body.msg).toBe(${js(facts.msg)});`);
  for (const key of ["orderId", "paymentId"]) if (facts[key] !== undefined) out.push(`expect(reply.body.data.${key}).toBe(${js(facts[key])});`);
  if (facts.dataStatus !== undefined) out.push(`expect(reply.body.data.status).toBe(${js(facts.dataStatus)});`);
  if (facts.failureCode !== undefined) out.push(`expect(reply.body.data.failureCode).toBe(${js(facts.failureCode)});`);
  if (facts.declineCode !== undefined) out.push(`expect(reply.headers["x-orderpay-decline-code"]).toBe(${js(facts.declineCode)});`);
  if (facts.replayed) out.push(`expect(reply.headers["idempotent-replayed"]).toBe("true");`);
  return out;
}

/** A request's fetch init, as JS source: method, headers, body; a hang gives up after a moment. */
function initOf(step) {
  const init = { method: step.method };
  if (Object.keys(step.headers).length > 0) init.headers = step.headers;
  if (step.body !== null) init.body = step.body;
  if (step.facts.network === "hang") init.timeoutMs = 200;
  return js(init);
}

/** A request whose answer the copy expects lost: fetch rejects. */
const lostInJs = (step) => step.facts.network !== undefined && (LOST.has(step.facts.network) || step.facts.network === "short");

/** The JS helper a copy checks a clock move's changes with, as changesAfter reads them. */
const CHANGES_HELPER = [
  "/** The payments' changes the service logged after record `after` (a clock move's), as the page shows them. */",
  "const changes = (after) => service.logs(after).filter((r) => r.stage === \"payment\").map((r) => `${r.paymentId} ${r.from} → ${r.to}`);",
];

/** The check of what a clock move changed. */
const changesCheck = (moved) => `expect(changes(${js(moved.after)})).toEqual(${js(moved.changes)});`;

/**
 * The body of a JS test (Vitest's or Playwright's): one block a step,
 * each numbered as every format numbers it.
 * `send`: the call that sends a request, given the path and init source;
 * `service`: the name of the Service.
 */
export function jsSteps(plan, { send, redirects }) {
  const lines = [];
  if (plan.steps.some((step) => step.kind === "advance" || step.waited?.changes.length > 0)) lines.push(...CHANGES_HELPER);
  plan.steps.forEach((step, i) => {
    const head = `// ${i + 1}. ${stepTitle(step)}`;
    lines.push(step.kind === "request" && lostInJs(step) ? `${head}: lost (a network fault: ${commentText(step.facts.network)})` : head);
    if (step.wait > 0) lines.push(`service.advance(${js(step.wait)}); // the time between the run's steps`);
    if (step.waited?.changes.length > 0) lines.push(changesCheck(step.waited));
    lines.push(...jsStep(step, send, redirects));
  });
  return lines;
}

function jsStep(step, send, redirects) {
  switch (step.kind) {
    case "request": {
      const call = send(js(step.path), initOf(step));
      if (lostInJs(step)) return [`await expect(${call}).rejects.toThrow();`];
      return [`reply = await ${call};`, ...jsChecks(step.facts, redirects)];
    }
    case "advance":
      return [`service.advance(${js(step.ms)});`, changesCheck(step.moved)];
    case "scenario":
      return [`service.setScenario(${js(step.scenario)});`];
    case "force":
      return [`service.forceNext(${js(step.outcome)}, ${js(step.count)});`];
    case "challenge":
      return [`expect(service.completeChallenge(${js(step.paymentId)}, ${js(step.outcome)})).toMatchObject(${js(step.payment)});`];
    default:
      return [];
  }
}

/** Lines indented by `n` spaces. */
export const indent = (lines, n) => lines.map((line) => `${" ".repeat(n)}${line}`).join("\n");
