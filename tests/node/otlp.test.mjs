// The OTLP/JSON export, read by OpenTelemetry's own code rather than a
// parser of ours:
//
// - the official opentelemetry-proto definitions, as @opentelemetry/otlp-transformer
//   ships them compiled with protobufjs (0.216.0 is its last release that
//   still carries the trace messages in its generated root);
// - the OpenTelemetry JS SDK (@opentelemetry/sdk-trace-base), whose spans the
//   transformer's own JSON serializer turns into what the SDK would export.
//
// Needs the built package: `source .ci/lib.sh && build_package` (CI does it).
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { test } from "node:test";

import { ROOT_CONTEXT, SpanKind, SpanStatusCode, TraceFlags, trace } from "@opentelemetry/api";
import { JsonTraceSerializer } from "@opentelemetry/otlp-transformer";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";

const pkg = new URL("../../pkg/", import.meta.url);
if (!existsSync(new URL("node.js", pkg))) {
  throw new Error("pkg/ is not built: run `source .ci/lib.sh && build_package` first");
}
const { Service } = await import(new URL("node.js", pkg).href);
const version = JSON.parse(readFileSync(new URL("package.json", pkg), "utf8")).version;

const require = createRequire(import.meta.url);
const proto = require("@opentelemetry/otlp-transformer/build/src/generated/root").opentelemetry.proto;
const Request = proto.collector.trace.v1.ExportTraceServiceRequest;

const T0 = 1_700_000_000_000;
const W3C_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
const W3C_PARENT = "00f067aa0ba902b7";
// The fields OTLP/JSON writes as hex instead of proto3 JSON's base64.
const ID_FIELDS = new Set(["traceId", "spanId", "parentSpanId"]);

const post = (service, path, body, headers = {}) => service.request("POST", path, body, headers);
const pay = (service, orderId, headers) =>
  post(service, "/api/payment/pay", { orderId, amount: 19.99, paymentMethod: "CARD" }, headers);

/** A session with every kind of span: both outcomes, forced ones, incoming
 * traceparent and 64-bit B3 ids, an order read, a refused request, a batch. */
function session() {
  const service = new Service({ seed: 42, virtualTime: T0 });
  const created = post(service, "/api/order/create", { userId: "alice", price: 19.99, description: "lamp" });
  const orderId = created.body.data.orderId;
  const replies = [created, pay(service, orderId), pay(service, orderId)];
  replies.push(pay(service, orderId, { "X-Sim-Outcome": "failure", "X-User-Id": "alice" }));
  replies.push(pay(service, orderId, { traceparent: `00-${W3C_TRACE}-${W3C_PARENT}-01` }));
  replies.push(service.request("GET", `/api/order/${orderId}`, undefined, { "X-B3-TraceId": "463ac35c9f6413ad" }));
  replies.push(service.request("GET", "/api/ordr/x"));
  replies.push(service.request("GET", "/api/test/order/batch?count=2"));
  return { service, orderId, replies };
}

// ------------------------------------------------------------ helpers

const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

/** A deep copy with the hex ids as bytes, which is how protobuf carries them. */
function idsToBytes(value, key) {
  if (Array.isArray(value)) return value.map((v) => idsToBytes(v));
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, idsToBytes(v, k)]));
  if (ID_FIELDS.has(key)) {
    assert.match(value, /^(?:[0-9a-f]{32}|[0-9a-f]{16})$/, `${key} ${value} is not lower-case hex`);
    return Buffer.from(value, "hex");
  }
  return value;
}

/** The reverse: base64 ids (as protobufjs's toObject gives bytes) back to hex. */
function idsToHex(value, key) {
  if (Array.isArray(value)) return value.map((v) => idsToHex(v));
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, idsToHex(v, k)]));
  if (ID_FIELDS.has(key)) return Buffer.from(value, "base64").toString("hex");
  return value;
}

/** OTLP/JSON read by the official definitions: checked, encoded to the
 * protobuf wire format, decoded again. */
function throughProtobuf(json) {
  const message = Request.fromObject(idsToBytes(json));
  assert.equal(Request.verify(message), null);
  const wire = Request.encode(message).finish();
  return { wire, decoded: Request.decode(wire) };
}

/** The decoded message as OTLP/JSON: int64 as decimal strings, enums as
 * numbers, ids as hex; only the fields that are set. */
const asOtlpJson = (decoded) =>
  idsToHex(Request.toObject(decoded, { longs: String, enums: Number, bytes: String }));

/** Every key of `json` must be a field of the proto message it decoded
 * into; nested objects are checked against their own message types. */
function assertKnownFields(json, message, path) {
  const fields = Object.keys(Object.getPrototypeOf(message)).filter((k) => k !== "toJSON");
  for (const [key, value] of Object.entries(json)) {
    assert.ok(fields.includes(key), `${path}.${key} is not a field of ${message.constructor.name} (${fields})`);
    const field = message[key];
    if (Array.isArray(value)) {
      value.forEach((item, i) => isObject(item) && assertKnownFields(item, field[i], `${path}.${key}[${i}]`));
    } else if (isObject(value)) {
      assertKnownFields(value, field, `${path}.${key}`);
    }
  }
}

/** Without the fields at their proto3 default (0, "", false, []), which
 * the wire format does not tell from absent; AnyValue members keep theirs,
 * since a oneof member set to 0 is a value. */
function withoutDefaults(value) {
  if (Array.isArray(value)) return value.map((v) => withoutDefaults(v));
  if (!isObject(value)) return value;
  const kept = Object.entries(value).filter(
    ([k, v]) =>
      k.endsWith("Value") || !(v === 0 || v === "" || v === "0" || v === false || (Array.isArray(v) && v.length === 0)),
  );
  return Object.fromEntries(kept.map(([k, v]) => [k, withoutDefaults(v)]));
}

function allSpans(otlp) {
  return otlp.resourceSpans.flatMap((rs) =>
    rs.scopeSpans.flatMap((ss) => ss.spans.map((span) => ({ service: serviceName(rs), span }))),
  );
}

function serviceName(resourceSpans) {
  const found = resourceSpans.resource.attributes.find((a) => a.key === "service.name");
  return found?.value.stringValue;
}

/** JS values of our attributes, as the SDK would be given them. */
function plainAttributes(attributes) {
  return Object.fromEntries(
    attributes.map(({ key, value }) => {
      if ("intValue" in value) return [key, Number(value.intValue)];
      const [only] = Object.values(value);
      return [key, only];
    }),
  );
}

// --------------------------------------------------------------- tests

test("the WebAssembly build decides the native tests' pinned order alike", () => {
  // tests/simulation.rs pins this: seed 42, alice, 19.99, "lamp".
  const { service, orderId, replies } = session();
  assert.equal(orderId, "ORD-2SC7XMIT");
  assert.equal(replies[1].body.msg, "Third party payment failed");
  assert.equal(replies[2].body.data.status, "SUCCESS");
  const outcomes = service
    .logs()
    .filter((r) => r.stage === "service" && r.outcome)
    .map((r) => r.outcome);
  assert.deepEqual(outcomes[0], {
    approved: false,
    rule: "draw",
    attempt: 1,
    draw: 0.1004408566832824,
    threshold: 0.3,
    reason: "draw 0.1004 < failure rate 0.3: declined",
  });
});

test("every key of the export is a field of the official proto messages", () => {
  const otlp = session().service.exportOtlp();
  const { decoded } = throughProtobuf(otlp);
  assertKnownFields(otlp, decoded, "ExportTraceServiceRequest");
  // The walk reached down to the attribute values.
  const first = decoded.resourceSpans[0].scopeSpans[0].spans[0].attributes[0].value;
  assert.equal(first.constructor.name, "AnyValue");
});

test("the export has OTLP/JSON's encodings: hex ids, int64 as decimal strings, enums as numbers", () => {
  const otlp = session().service.exportOtlp();
  const spans = allSpans(otlp);
  assert.ok(spans.length >= 20, `${spans.length} spans`);
  for (const { span } of spans) {
    assert.match(span.traceId, /^[0-9a-f]{32}$/);
    assert.doesNotMatch(span.traceId, /^0+$/);
    assert.match(span.spanId, /^[0-9a-f]{16}$/);
    if ("parentSpanId" in span) assert.match(span.parentSpanId, /^[0-9a-f]{16}$/);
    assert.match(span.startTimeUnixNano, /^[0-9]+$/);
    assert.match(span.endTimeUnixNano, /^[0-9]+$/);
    assert.ok(BigInt(span.startTimeUnixNano) <= BigInt(span.endTimeUnixNano));
    assert.ok([2, 3].includes(span.kind), `kind ${span.kind}`);
    assert.ok(span.status.code === undefined || span.status.code === 2);
    for (const { value } of span.attributes) {
      assert.equal(Object.keys(value).length, 1, "one AnyValue member");
      if ("intValue" in value) assert.match(value.intValue, /^-?[0-9]+$/);
    }
  }
  // Our own spans are among them: the padded 64-bit B3 id and the caller's parent.
  assert.ok(spans.some(({ span }) => span.traceId === "0000000000000000463ac35c9f6413ad"));
  assert.ok(spans.some(({ span }) => span.traceId === W3C_TRACE && span.parentSpanId === W3C_PARENT));

  // And read back through protobuf it is exactly what was written: no
  // unknown key dropped, no value of the wrong type coerced.
  const { wire, decoded } = throughProtobuf(otlp);
  assert.ok(wire.length > 1000);
  assert.deepEqual(asOtlpJson(decoded), otlp);
  const span = decoded.resourceSpans[0].scopeSpans[0].spans[0];
  assert.equal(span.traceId.length, 16);
  assert.equal(span.spanId.length, 8);
});

test("the export matches what the OpenTelemetry JS SDK exports for the same spans", () => {
  const { service, orderId } = session();
  // One traced payment, alone, so its three spans can be made again with the SDK.
  const before = allSpans(service.exportOtlp()).length;
  const reply = pay(service, orderId, { traceparent: `00-${W3C_TRACE}-${W3C_PARENT}-01`, "X-User-Id": "bob" });
  const exported = allSpans(service.exportOtlp());
  assert.equal(exported.length, before + 3);
  const child = (spanId) => exported.find(({ span }) => span.parentSpanId === spanId);
  const gateway = exported.find(({ span }) => span.spanId === reply.headers["x-b3-spanid"]);
  const ours = [gateway, child(gateway.span.spanId)];
  ours.push(child(ours[1].span.spanId));
  assert.deepEqual(
    ours.map((s) => s.service),
    ["gateway", "payment-service", "third-party"],
  );
  assert.equal(gateway.span.parentSpanId, W3C_PARENT);

  // The same spans made by the SDK: a provider per service, ids handed in.
  const exporter = new InMemorySpanExporter();
  for (const { service: name, span } of ours) {
    const provider = new BasicTracerProvider({
      resource: resourceFromAttributes({ "service.name": name, "service.namespace": "orderpay" }),
      idGenerator: { generateTraceId: () => span.traceId, generateSpanId: () => span.spanId },
      spanProcessors: [new SimpleSpanProcessor(exporter)],
    });
    const parent = trace.setSpanContext(ROOT_CONTEXT, {
      traceId: span.traceId,
      spanId: span.parentSpanId,
      traceFlags: TraceFlags.SAMPLED,
      isRemote: name === "gateway",
    });
    const sdkSpan = provider.getTracer("orderpay", version).startSpan(
      span.name,
      {
        kind: span.kind === 3 ? SpanKind.CLIENT : SpanKind.SERVER,
        attributes: plainAttributes(span.attributes),
        startTime: Number(BigInt(span.startTimeUnixNano) / 1_000_000n),
      },
      parent,
    );
    if (span.status.code === 2) sdkSpan.setStatus({ code: SpanStatusCode.ERROR, message: span.status.message });
    sdkSpan.end(Number(BigInt(span.endTimeUnixNano) / 1_000_000n));
  }
  const finished = exporter.getFinishedSpans();
  assert.equal(finished.length, 3);
  const sdk = JSON.parse(new TextDecoder().decode(JsonTraceSerializer.serializeRequest(finished)));

  // Our export of these spans, in the shape the service gives it.
  const mine = service.exportOtlp();
  const just = {
    resourceSpans: mine.resourceSpans
      .map((rs) => ({
        ...rs,
        scopeSpans: rs.scopeSpans.map((ss) => ({
          ...ss,
          spans: ss.spans.filter((s) => ours.some(({ span }) => span.spanId === s.spanId)),
        })),
      }))
      .filter((rs) => rs.scopeSpans.some((ss) => ss.spans.length > 0)),
  };

  // Same keys at every level, apart from what the SDK writes at its default
  // value, and the span flags (the W3C trace flags and the remote bits)
  // that the SDK knows and our export leaves at 0, "unknown".
  const sdkSpans = sdk.resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((ss) => ss.spans));
  const mySpans = just.resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((ss) => ss.spans));
  for (const [i, span] of mySpans.entries()) {
    const theirs = sdkSpans[i];
    for (const key of Object.keys(span)) assert.ok(key in theirs, `the SDK has no ${key}`);
    const extra = Object.keys(theirs).filter((k) => !(k in span));
    for (const key of extra) {
      const value = theirs[key];
      const isDefault = value === 0 || value === undefined || (Array.isArray(value) && value.length === 0);
      assert.ok(isDefault || key === "flags", `the SDK writes ${key}: ${JSON.stringify(value)} that we lack`);
    }
    assert.equal(typeof theirs.startTimeUnixNano, typeof span.startTimeUnixNano);
    assert.equal(typeof theirs.kind, typeof span.kind);
  }

  // Read by the official definitions, the two are the same message, flags
  // aside: what differs is only what proto3 treats as absent.
  const withoutFlags = (json) => {
    for (const rs of json.resourceSpans) for (const ss of rs.scopeSpans) for (const s of ss.spans) delete s.flags;
    return json;
  };
  const theirs = withoutFlags(withoutDefaults(asOtlpJson(throughProtobuf(sdk).decoded)));
  const mineRead = asOtlpJson(throughProtobuf(just).decoded);
  assert.deepEqual(withoutDefaults(mineRead), mineRead, "our export writes no default values");
  assert.deepEqual(mineRead, theirs);
  // ... and the same bytes on the wire.
  assert.deepEqual(
    Buffer.from(throughProtobuf(just).wire),
    Buffer.from(Request.encode(Request.fromObject(idsToBytes(theirs))).finish()),
  );
});
