// logs(), spans() and exportOtlp() built from the module's tape (see
// src/observe/tape.rs): numbers read in place from linear memory, and the
// strings they point into, parsed once as a JSON array. Each object is
// made by a literal of its one shape, which V8 does several times faster
// than JSON.parse reads the same objects from text, and a string shared
// by many records (a trace id, a route) is made once. The fields come in
// the order src/observe/render.rs and otlp.rs write them (`*_on_tape`):
// the objects are those JSON.parse makes of the text, key for key. That
// order is a copy of the core's, kept for V8's hidden classes (one literal
// per shape); tests/node/tape.test.mjs holds it to the core's text.
// Internal module: Service's reads use it.

/** Record shapes, as render.rs's `shape` numbers them. */
const GATEWAY = 0;
const SERVICE = 1;
const DECIDED = 2;
const FAILED = 4;
/** A response record of a replay (`replay: true`); other response records are 3. */
const REPLAYED = 5;
/** A response record, then its scenario's `fault` as JSON text. */
const FAULTED = 6;
/** A payment's change of state: its members after the ids, as JSON text. */
const PAYMENT = 7;
/** A service record, then its outcome as JSON text (a test card's, or a scenario's rule's that changes later). */
const NOTED = 8;

/** Attribute value types, as render.rs's `attr_type` numbers them. */
const STR = 0;
const INT = 1;

/**
 * What `build` makes of the tape's numbers (read in place: no call into
 * the module runs until it is done) and strings. `raw` is the module's
 * RawTape, freed here; `memory` returns its linear memory.
 */
function read(raw, memory, build) {
  try {
    const strings = JSON.parse(raw.strings());
    return build(new Float64Array(memory().buffer, raw.numbersAt(), raw.numbersLen()), strings);
  } finally {
    raw.free();
  }
}

/** A string index: -1 is null. */
function text(strings, index) {
  return index < 0 ? null : strings[index];
}

/** A number that may be null: NaN on the tape. */
function orNull(n) {
  return n === n ? n : null;
}

/** The log records of a tape, in the form JSON.parse gives logs()'s text. */
export function records(raw, memory) {
  return read(raw, memory, buildRecords);
}

// A record on the tape: its shape, six fields every record has, then those
// of its shape (3, 3, 9, 10, 13 for a decision a scenario made, or 11 for a
// response with a fault). Each builder gets the tape at the shape.

function buildRecords(t, s) {
  const out = [];
  let k = 0;
  while (k < t.length) {
    const shape = t[k];
    if (shape === GATEWAY) {
      out.push(gatewayRecord(t, s, k));
      k += 9;
    } else if (shape === SERVICE) {
      out.push(serviceRecord(t, s, k));
      k += 9;
    } else if (shape === DECIDED) {
      out.push(decidedRecord(t, s, k));
      k += 15;
    } else if (shape === FAILED) {
      out.push(failedRecord(t, s, k));
      k += 19;
    } else if (shape === NOTED) {
      const record = serviceRecord(t, s, k);
      record.outcome = JSON.parse(s[t[k + 9]]);
      out.push(record);
      k += 10;
    } else if (shape === PAYMENT) {
      const ids = { seq: t[k + 1], timestamp: t[k + 2], traceId: s[t[k + 3]], spanId: s[t[k + 4]] };
      out.push({ ...ids, parentSpanId: text(s, t[k + 5]), ...JSON.parse(s[t[k + 6]]) });
      k += 7;
    } else {
      const record = responseRecord(t, s, k);
      k += 16;
      if (shape === REPLAYED) record.replay = true;
      if (shape === FAULTED) record.fault = JSON.parse(s[t[k++]]);
      out.push(record);
    }
  }
  return out;
}

function gatewayRecord(t, s, k) {
  return {
    seq: t[k + 1],
    timestamp: t[k + 2],
    traceId: s[t[k + 3]],
    spanId: s[t[k + 4]],
    parentSpanId: text(s, t[k + 5]),
    stage: "gateway",
    method: s[t[k + 6]],
    uri: s[t[k + 7]],
    uri_group: text(s, t[k + 8]),
  };
}

function serviceRecord(t, s, k) {
  return {
    seq: t[k + 1],
    timestamp: t[k + 2],
    traceId: s[t[k + 3]],
    spanId: s[t[k + 4]],
    parentSpanId: text(s, t[k + 5]),
    stage: "service",
    event_class: s[t[k + 6]],
    duration: t[k + 7],
    status: s[t[k + 8]],
  };
}

/**
 * A decided record whose outcome a scenario made: the name of the scenario's
 * rule that decided (after `rule`), its decline code and what the third party did.
 */
function failedRecord(t, s, k) {
  const record = decidedRecord(t, s, k);
  const { approved, rule, attempt, draw, threshold, reason } = record.outcome;
  const outcome = { approved, rule };
  const name = text(s, t[k + 18]);
  if (name !== null) outcome.scenarioRule = name;
  outcome.attempt = attempt;
  outcome.draw = draw;
  outcome.threshold = threshold;
  const code = text(s, t[k + 15]);
  if (code !== null) outcome.declineCode = code;
  const word = text(s, t[k + 16]);
  const status = orNull(t[k + 17]);
  if (word !== null || status !== null) outcome.thirdParty = word ?? status;
  outcome.reason = reason;
  record.outcome = outcome;
  return record;
}

/** A service record with the payment decision's outcome. */
function decidedRecord(t, s, k) {
  return {
    seq: t[k + 1],
    timestamp: t[k + 2],
    traceId: s[t[k + 3]],
    spanId: s[t[k + 4]],
    parentSpanId: text(s, t[k + 5]),
    stage: "service",
    event_class: s[t[k + 6]],
    duration: t[k + 7],
    status: s[t[k + 8]],
    outcome: {
      approved: t[k + 9] === 1,
      rule: s[t[k + 10]],
      attempt: t[k + 11],
      draw: orNull(t[k + 12]),
      threshold: orNull(t[k + 13]),
      reason: s[t[k + 14]],
    },
  };
}

function responseRecord(t, s, k) {
  return {
    seq: t[k + 1],
    timestamp: t[k + 2],
    traceId: s[t[k + 3]],
    spanId: s[t[k + 4]],
    parentSpanId: text(s, t[k + 5]),
    stage: "response",
    method: s[t[k + 6]],
    uri: s[t[k + 7]],
    uri_group: text(s, t[k + 8]),
    event_class: text(s, t[k + 9]),
    duration: orNull(t[k + 10]),
    status: s[t[k + 11]],
    httpStatus: t[k + 12],
    code: t[k + 13],
    msg: s[t[k + 14]],
    userId: text(s, t[k + 15]),
  };
}

/** The spans of a tape, in the form JSON.parse gives spans()'s text. */
export function spans(raw, memory) {
  return read(raw, memory, buildSpans);
}

function buildSpans(t, s) {
  const out = [];
  let k = 0;
  while (k < t.length) {
    const count = t[k + 8];
    const attributes = [];
    let a = k + 9;
    for (let i = 0; i < count; i++, a += 3) {
      const type = t[a + 1];
      attributes.push([s[t[a]], type === STR ? s[t[a + 2]] : type === INT ? t[a + 2] : t[a + 2] === 1]);
    }
    out.push({
      traceId: s[t[k]],
      spanId: s[t[k + 1]],
      parentSpanId: text(s, t[k + 2]),
      name: s[t[k + 3]],
      component: s[t[k + 4]],
      start: t[k + 5],
      end: t[k + 6],
      status: s[t[k + 7]],
      attributes,
    });
    k = a;
  }
  return out;
}

/** The OTLP/JSON export of a tape, in the form JSON.parse gives its text. */
export function otlp(raw, memory) {
  return read(raw, memory, buildOtlp);
}

/** The components in the order the export lists them, as otlp.rs's `COMPONENTS`. */
const COMPONENTS = ["gateway", "order-service", "payment-service", "third-party", "test-data", "webhook"];

/**
 * The package's version, then the spans as buildSpans reads them (with
 * 32-digit trace ids, and times as OTLP's nanosecond strings): each span
 * goes under its component, with kind 3 (CLIENT) for the third party's
 * and 2 (SERVER) for the rest, and its error status's message, if any
 * (span_entry.rs's `error`).
 */
function buildOtlp(t, s) {
  const version = s[t[0]];
  // Each component's spans, by its name; and by its string index with
  // their kind, so that a span finds them without reading the name.
  const under = new Map();
  const byIndex = [];
  const kinds = [];
  let k = 1;
  while (k < t.length) {
    const traceId = s[t[k]];
    const spanId = s[t[k + 1]];
    const parent = t[k + 2];
    const name = s[t[k + 3]];
    const at = t[k + 4];
    let spans = byIndex[at];
    if (spans === undefined) {
      const component = s[at];
      spans = under.get(component);
      if (spans === undefined) {
        spans = [];
        under.set(component, spans);
      }
      byIndex[at] = spans;
      kinds[at] = component === "third-party" ? 3 : 2;
    }
    const kind = kinds[at];
    const startTimeUnixNano = s[t[k + 5]];
    const endTimeUnixNano = s[t[k + 6]];
    const message = t[k + 7];
    const status = message < 0 ? {} : { code: 2, message: s[message] };
    const count = t[k + 8];
    const attributes = spanAttributes(t, s, k + 9, count);
    const a = k + 9 + count * 3;
    spans.push(
      parent < 0
        ? { traceId, spanId, name, kind, startTimeUnixNano, endTimeUnixNano, attributes, status }
        : { traceId, spanId, parentSpanId: s[parent], name, kind, startTimeUnixNano, endTimeUnixNano, attributes, status },
    );
    k = a;
  }
  return { resourceSpans: resourceSpans(under, version) };
}

/** A span's `count` attributes, from `a` on the tape: key, type, value each. */
function spanAttributes(t, s, a, count) {
  const attributes = [];
  for (let j = 0; j < count; j++, a += 3) {
    const key = s[t[a]];
    const type = t[a + 1];
    attributes.push(
      type === STR
        ? { key, value: { stringValue: s[t[a + 2]] } }
        : type === INT
          ? { key, value: { intValue: `${t[a + 2]}` } }
          : { key, value: { boolValue: t[a + 2] === 1 } },
    );
  }
  return attributes;
}

/** The spans under each component, in the components' order, as OTLP's resourceSpans. */
function resourceSpans(under, version) {
  const out = [];
  for (const component of COMPONENTS) {
    const spans = under.get(component);
    if (spans === undefined) continue;
    out.push({
      resource: {
        attributes: [
          { key: "service.name", value: { stringValue: component } },
          { key: "service.namespace", value: { stringValue: "orderpay" } },
        ],
      },
      scopeSpans: [{ scope: { name: "orderpay", version }, spans }],
    });
  }
  return out;
}
