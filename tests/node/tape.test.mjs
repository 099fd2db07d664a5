// logs(), spans() and exportOtlp() build their objects in JS from the
// module's tape (src/js/tape.js): they must be, key for key and in key
// order, what JSON.parse makes of the same reads written as text, which
// the module still writes for exportNdjson(), snapshot() and
// exportOtlpPieces(). Checked on a busy service with every shape of
// record and span, and on one restored from its snapshot (whose
// third-party reasons come from the text).
//
// Needs the built package: `source .ci/lib.sh && build_package` (CI does it).
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { test } from "node:test";

const pkg = new URL("../../pkg/", import.meta.url);
if (!existsSync(new URL("node.js", pkg))) {
  throw new Error("pkg/ is not built: run `source .ci/lib.sh && build_package` first");
}
const { Service } = await import(new URL("node.js", pkg).href);
const coreJson = await import(new URL("server/core_json.js", pkg).href);

const T0 = 1_700_000_000_000;

/** A service that has seen every kind of request the journal records. */
function busy(options = {}) {
  const s = new Service({ seed: 7, virtualTime: T0, ...options });
  const post = (path, body, headers) => s.request("POST", path, body, headers);
  const users = ["alice", "bob", "ünïcødé \"quoted\" \\ back\nslash", "😀 emoji", "\u0001ctl"];
  for (let i = 0; i < 60; i++) {
    const userId = users[i % users.length];
    const created = post("/api/order/create", { userId, price: 1 + i, description: `item ${i}` });
    const orderId = created.body.data?.orderId;
    const headers = [
      {},
      { "X-Sim-Outcome": i % 2 ? "failure" : "success" },
      { traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01" },
      { "X-B3-TraceId": "463ac35c9f6413ad", "X-B3-SpanId": "00f067aa0ba902b7" },
      { "X-User-Id": userId },
    ][i % 5];
    if (i % 7 === 3) s.forceNext(i % 2 ? "failure" : "success", 2);
    post("/api/payment/pay", { orderId, amount: 1 + i, paymentMethod: "CARD" }, headers);
    s.request("GET", `/api/order/${orderId}`);
    s.advance(i % 3);
  }
  s.request("GET", "/api/ordr/x");
  s.request("GET", "/api/order/%E2%82%AC\u00e9?x=1");
  s.request("BREW", "/api/order/create");
  s.request("brew", "/api/payment/pay", "{}");
  s.request("POST", "/api/order/create", "{not json");
  s.request("POST", "/api/order/create", { userId: "", price: -1 });
  s.request("DELETE", "/somewhere/else");
  s.request("GET", "/api/test/order/batch?count=40");
  return s;
}

/** What the text forms say, parsed: the records, the spans, the OTLP export. */
function fromText(s) {
  const journal = JSON.parse(s.snapshot()).journal;
  const ndjson = s.exportNdjson();
  let otlp = "";
  for (const piece of s.exportOtlpPieces()) otlp += piece;
  return {
    records: ndjson === "" ? [] : JSON.parse(`[${ndjson.trimEnd().split("\n").join(",")}]`).map(withoutIsoTime),
    snapshotRecords: journal.records,
    spans: journal.spans,
    otlp: JSON.parse(otlp),
    otlpText: otlp,
  };
}

/** An NDJSON line's record: its first key, `@timestamp`, is its time in ISO 8601, and the rest is the record. */
function withoutIsoTime(line) {
  const { "@timestamp": at, ...record } = line;
  assert.equal(Object.keys(line)[0], "@timestamp");
  assert.equal(at, new Date(record.timestamp).toISOString());
  return record;
}

/** Deep equal, and equal as JSON text (so keys come in the same order). */
function same(actual, expected, what) {
  assert.deepStrictEqual(actual, expected, what);
  assert.equal(JSON.stringify(actual), JSON.stringify(expected), `${what}: key order`);
}

function check(s, label) {
  const text = fromText(s);
  assert.ok(text.records.length > 100, `${label}: a busy log`);
  assert.deepStrictEqual(text.records, text.snapshotRecords, `${label}: NDJSON and snapshot agree`);
  const logs = s.logs();
  same(logs, text.records, `${label}: logs()`);
  for (const at of [0, 1, logs.length >> 1, logs.length - 1]) {
    const after = logs[at].seq;
    same(s.logs(after), text.records.filter((r) => r.seq > after), `${label}: logs(${after})`);
  }
  same(s.logs(Number.MAX_SAFE_INTEGER), [], `${label}: logs(after the last)`);
  same(s.spans(), text.spans, `${label}: spans()`);
  const otlp = s.exportOtlp();
  same(otlp, text.otlp, `${label}: exportOtlp()`);
  assert.equal(JSON.stringify(otlp), text.otlpText, `${label}: exportOtlp() as text`);
  return { logs, spans: text.spans };
}

test("logs(), spans() and exportOtlp() are what JSON.parse makes of their text, on a busy service", () => {
  const s = busy();
  const { logs, spans } = check(s, "busy");
  // Every shape of record and span was there to be compared.
  assert.ok(logs.some((r) => r.stage === "gateway"));
  assert.ok(logs.some((r) => r.stage === "service" && r.outcome));
  assert.ok(logs.some((r) => r.stage === "service" && !r.outcome));
  assert.ok(logs.some((r) => r.stage === "response" && r.event_class === null && r.duration === null));
  assert.ok(logs.some((r) => r.stage === "response" && r.userId !== null && /[^\x20-\x7e]/.test(r.userId)));
  assert.ok(logs.some((r) => r.traceId.length === 16));
  assert.ok(logs.some((r) => r.uri_group === null));
  assert.ok(spans.some((sp) => sp.component === "third-party"));
  assert.ok(spans.some((sp) => sp.parentSpanId === null) && spans.some((sp) => sp.parentSpanId !== null));
  assert.ok(spans.some((sp) => sp.attributes.some(([, v]) => typeof v === "boolean")));
  s.free();
});

/** A busy service under a scenario whose rules decline, time out, answer 503, limit and lose requests, and plan pending payments and challenges. */
function underScenario() {
  const rules = [
    { name: "no funds", when: { route: "/api/payment/pay", every: 6 }, then: { kind: "decline", code: "insufficient_funds" } },
    { name: "down", when: { route: "/api/payment/pay", every: 8 }, then: { kind: "processor_error", status: 503 } },
    { name: "slow", when: { route: "/api/payment/pay", every: 10 }, then: { kind: "timeout", afterMs: 50 } },
    { name: "limited", when: { every: 7 }, then: { kind: "http", status: 429, retryAfter: 1 } },
    { name: "lost", when: { every: 11 }, then: { kind: "network", fault: "error" } },
    { name: "processing", when: { route: "/api/payment/pay", every: 13 }, then: { kind: "pending", forMs: 5, outcome: "fail" } },
    { name: "3ds", when: { route: "/api/payment/pay", every: 17 }, then: { kind: "challenge" } },
  ];
  return busy({ scenario: { rules } });
}

test("under a scenario: outcome.rule \"scenario\" with scenarioRule, faults and network spans read the same both ways", () => {
  const s = underScenario();
  const { logs, spans } = check(s, "scenario");
  const outcomes = logs.filter((r) => r.stage === "service" && r.outcome).map((r) => r.outcome);
  for (const name of ["no funds", "down", "slow"]) {
    assert.ok(outcomes.some((o) => o.rule === "scenario" && o.scenarioRule === name), name);
  }
  assert.ok(outcomes.some((o) => o.rule !== "scenario" && o.declineCode === "generic_decline" && !("scenarioRule" in o)));
  // A payment that changes later: what is planned (outcome.async) reads the same both ways.
  assert.ok(outcomes.some((o) => o.async?.kind === "pending" && o.async.outcome === "fail" && o.async.code === "generic_decline" && typeof o.async.dueAt === "number"));
  assert.ok(outcomes.some((o) => o.async?.kind === "challenge" && o.async.dueAt === null));
  assert.ok(logs.some((r) => r.stage === "response" && r.fault?.kind === "network"));
  assert.ok(spans.some((sp) => sp.attributes.some(([k, v]) => k === "orderpay.fault.kind" && v === "network")));
  const restored = Service.restore(s.snapshot());
  check(restored, "scenario, restored");
  restored.free();
  s.free();
});

test("a restored service, a bounded log and a cleared one read the same both ways", () => {
  const s = busy();
  const restored = Service.restore(s.snapshot());
  check(restored, "restored");
  restored.free();
  s.free();

  const bounded = busy({ logCapacity: 150 });
  assert.ok(bounded.droppedLogs > 0);
  check(bounded, "bounded");
  bounded.clearLogs();
  same(bounded.logs(), [], "cleared logs()");
  same(bounded.spans(), [], "cleared spans()");
  same(bounded.exportOtlp(), { resourceSpans: [] }, "cleared exportOtlp()");
  bounded.free();
});

test("the objects are the caller's own: changing one read leaves the next alone", () => {
  const s = busy();
  const first = s.logs();
  const spans = s.spans();
  const otlp = s.exportOtlp();
  first[0].traceId = "changed";
  spans[0].attributes[0][1] = "changed";
  otlp.resourceSpans[0].scopeSpans[0].spans[0].attributes[0].value.stringValue = "changed";
  const again = fromText(s);
  same(s.logs(), again.records, "logs() after a change");
  same(s.spans(), again.spans, "spans() after a change");
  same(s.exportOtlp(), again.otlp, "exportOtlp() after a change");
  // Two spans' attribute lists are never one array.
  const next = s.spans();
  assert.notEqual(next[0].attributes, next[1].attributes);
  s.free();
});

test("reads of a freed service throw, as before", () => {
  const s = busy();
  s.free();
  for (const read of [() => s.logs(), () => s.spans(), () => s.exportOtlp()]) {
    assert.throws(read, TypeError);
  }
});

// The server sends the core's text as it is (src/js/server/core_json.js):
// byte for byte what it sent when it wrote JSON.stringify of the reads.
test("the core's texts the server sends are JSON.stringify of the reads, byte for byte", () => {
  for (const [s, bounded] of [[busy(), false], [busy({ logCapacity: 150 }), true]]) {
    const logs = s.logs();
    assert.equal(coreJson.logsText(s, null), JSON.stringify(logs));
    for (const at of [0, 1, logs.length >> 1, logs.length - 1]) {
      assert.equal(coreJson.logsText(s, logs[at].seq), JSON.stringify(s.logs(logs[at].seq)));
    }
    const spans = s.spans();
    assert.equal(coreJson.spansText(s, null), JSON.stringify(spans));
    const traces = [...new Set(spans.map((sp) => sp.traceId))];
    // Both widths of trace id (the bounded log holds only its newest spans, of the last requests).
    assert.ok(bounded || (traces.some((t) => t.length === 16) && traces.some((t) => t.length === 32)));
    for (const traceId of traces) {
      assert.equal(coreJson.spansText(s, traceId), JSON.stringify(spans.filter((sp) => sp.traceId === traceId)), traceId);
    }
    assert.equal(coreJson.spansText(s, "0123456789abcdef"), "[]");
    assert.equal(coreJson.otlpText(s), JSON.stringify(s.exportOtlp()));
    assert.equal(coreJson.countersText(s), JSON.stringify(s.counters()));
    assert.equal(coreJson.forcedText(s), JSON.stringify(s.forced));
    // The live stream's pages, 7 records at a time, join into the log.
    let after = 0;
    const joined = [];
    for (;;) {
      const page = coreJson.logsPage(s, after, 7);
      const records = JSON.parse(page.text);
      assert.equal(records.length, page.count);
      assert.equal(page.text, JSON.stringify(s.logs(after).slice(0, 7)));
      if (!page.count) break;
      assert.equal(page.last, records.at(-1).seq);
      joined.push(...records);
      after = page.last;
    }
    assert.equal(after, logs.at(-1).seq);
    assert.equal(JSON.stringify(joined), JSON.stringify(logs));
    s.free();
  }
});

test("the core refuses to filter spans by a trace id it never gives, the all-zero one among them", () => {
  const s = busy();
  for (const bad of ["0000000000000000", "00000000000000000000000000000000", "", "XYZ", "463AC35C9F6413AD", "463ac35c9f6413a"]) {
    assert.throws(() => coreJson.spansText(s, bad), (error) => {
      assert.ok(error instanceof TypeError);
      assert.equal(error.message, `traceId: expected 16 or 32 lower-case hex digits, not all zeros, got ${JSON.stringify(bad)}`);
      return true;
    });
  }
  s.free();
  assert.throws(() => coreJson.logsText(s, null), TypeError);
});
