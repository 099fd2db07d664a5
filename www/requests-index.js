// The log's records joined back into requests, the way a Network panel
// lists them: one entry per request with its gateway, service and response
// records. A request's records share its trace id, and the gateway and
// response records its gateway span id (the service record names that span
// as its parent), so `traceId/spanId` is the request's key. Kept up to date
// as records arrive (only the new ones are read) and as the log drops its
// oldest ones.

export const keyOf = (traceId, spanId) => `${traceId}/${spanId}`;

export class RequestIndex {
  /** Requests, oldest first. */
  list = [];
  /** key → request */
  byKey = new Map();
  /** Changes whenever the list does. */
  version = 0;
  /** The `stage: "payment"` records (a payment's change of state, written later in its pay's trace), oldest first. */
  changes = [];
  /** The payment ids a refund answered code 0 for: a payment's SUCCESS since is REFUNDED (outcome.js payStatusNow). */
  refunded = new Set();
  /** A pay's payment-service span id → its request's key: where a later change of state belongs. */
  #bySpan = new Map();
  #lastSeq = 0;

  /** `version`: where to start counting, past the index this one replaces, so a view never mistakes one for the other. */
  constructor(version = 0) {
    this.version = version;
  }

  /** Adds records newer than all it holds, oldest first: an index being built a slice at a time. */
  append(records) {
    if (!records.length) return;
    for (const r of records) if (r.seq > this.#lastSeq) this.#add(r);
    this.#lastSeq = Math.max(this.#lastSeq, records.at(-1).seq);
    this.version++;
  }

  /** Reads the records newer than the last look; `records` is the store's, oldest first. */
  update(records) {
    if (!records.length) {
      this.clear();
      return;
    }
    // The log was emptied or replaced: start again.
    if (records.at(-1).seq < this.#lastSeq) this.clear();
    // The oldest requests' records were dropped: let those requests go.
    const first = records[0].seq;
    let drop = 0;
    while (drop < this.list.length && this.list[drop].seq < first) this.byKey.delete(this.list[drop++].key);
    if (drop) this.list.splice(0, drop);
    while (this.changes.length && this.changes[0].seq < first) this.changes.shift();

    let i = records.length;
    while (i > 0 && records[i - 1].seq > this.#lastSeq) i--;
    if (drop || i < records.length) this.version++;
    for (; i < records.length; i++) this.#add(records[i]);
    this.#lastSeq = records.at(-1).seq;
  }

  clear() {
    this.version++;
    this.list = [];
    this.byKey = new Map();
    this.changes = [];
    this.refunded = new Set();
    this.#bySpan = new Map();
    this.#lastSeq = 0;
  }

  /**
   * A payment's change of state is no request of its own: it joins the
   * list of changes, and the pay request whose payment-service span it
   * hangs under (its parent, or its own span id), when that is still held.
   */
  #change(r) {
    this.changes.push(r);
    const req = this.byKey.get(this.#bySpan.get(r.parentSpanId) ?? this.#bySpan.get(r.spanId) ?? "");
    if (req) (req.changes ??= []).push(r);
  }

  /** A refund answered code 0: its payment is REFUNDED. */
  #refund(uri) {
    const id = /^\/api\/payment\/refund\/([^/?#]+)/.exec(uri ?? "")?.[1];
    if (id) this.refunded.add(id);
  }

  #add(r) {
    if (r.stage === "payment") {
      this.#change(r);
      return;
    }
    const spanId = r.stage === "service" ? r.parentSpanId : r.spanId;
    const key = keyOf(r.traceId, spanId);
    let req = this.byKey.get(key);
    if (!req) {
      req = {
        key, traceId: r.traceId, spanId, seq: r.seq, gateway: null, service: null, response: null,
        method: r.method ?? "", uri: r.uri ?? "", timestamp: r.timestamp,
      };
      this.byKey.set(key, req);
      this.list.push(req);
    }
    req[r.stage] = r;
    if (r.stage === "service") this.#bySpan.set(r.spanId, key);
    if (r.stage === "response") {
      if (r.code === 0) this.#refund(r.uri);
      req.method = r.method ?? req.method;
      req.uri = r.uri ?? req.uri;
      req.httpStatus = r.httpStatus;
      req.code = r.code;
      req.msg = r.msg;
      req.duration = r.duration;
      req.status = r.status;
      req.userId = r.userId;
      req.event_class = r.event_class;
      req.uri_group = r.uri_group;
      req.end = r.timestamp;
      req.kind = kindOf(r);
      // What a scenario did to it (its rule and failure), and whether it replayed a kept answer (Idempotency-Key).
      req.fault = r.fault && typeof r.fault === "object" ? r.fault : null;
      req.replay = r.replay === true;
    }
  }
}

/**
 * What an answer was, in four kinds that look different: "ok" (code 0),
 * "declined" (the simulated third party said no: HTTP 200, code -1,
 * status server_error), "business" (another documented rejection: HTTP 200,
 * code -1), "failed" (the third party's own error, a scenario's 5xx or
 * timeout, with the same envelope as a decline), "rejected" (the gateway
 * turned it away: 4xx or 5xx) and "lost" (a network fault: no answer, so
 * no status and no code).
 */
export function kindOf(response) {
  if (!response) return "pending";
  if (response.httpStatus === 0) return "lost";
  if (response.httpStatus !== 200) return "rejected";
  if (response.code === 0) return "ok";
  if (response.status !== "server_error") return "business";
  const fault = response.fault?.kind;
  return fault === "processor_error" || fault === "timeout" ? "failed" : "declined";
}

export const KIND_TEXT = {
  ok: "success",
  business: "business error",
  declined: "declined by the third party",
  failed: "failed at the third party (its error, not a decline)",
  rejected: "turned away",
  lost: "no answer (a network fault)",
  pending: "no response record",
};
