// traceHeaders, the package's check of trace headers by the service's own
// rules: what it says decides is the trace id the service then uses, and a
// header it calls ill-formed is one the service ignores.
import assert from "node:assert/strict";
import { test } from "node:test";

const { Service, traceHeaders } = await import(new URL("../../pkg/node.js", import.meta.url).href);

const parent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
const usedFor = (headers) => new Service({ seed: 1 }).request("GET", "/api/order/ORD-NOPE0000", null, headers).headers["x-b3-traceid"];

test("the header it says decides is the one whose trace id the service uses", () => {
  for (const [headers, decides, id] of [
    [{ "X-B3-TraceId": "463ac35c9f6413ad", traceparent: parent }, "X-B3-TraceId", "463ac35c9f6413ad"],
    [{ "x-b3-traceid": "NOPE", b3: "80f198ee56343ba8-e457b5a2e4d86bd1", traceparent: parent }, "b3", "80f198ee56343ba8"],
    [{ traceparent: parent }, "traceparent", "4bf92f3577b34da6a3ce929d0e0e4736"],
  ]) {
    assert.equal(traceHeaders(headers).decides, decides, JSON.stringify(headers));
    assert.equal(usedFor(headers), id);
    assert.equal(traceHeaders(new Headers(headers)).decides, decides);
  }
  // A lone b3 sampling decision is read alone: traceparent is not, and the id is fresh.
  assert.equal(traceHeaders({ b3: "1", traceparent: parent }).decides, null);
  assert.notEqual(usedFor({ b3: "1", traceparent: parent }), "4bf92f3577b34da6a3ce929d0e0e4736");
});

test("each ill-formed header is named with why", () => {
  assert.deepEqual(traceHeaders({ "X-B3-TraceId": "463AC35C9F6413AD", "X-B3-SpanId": "abc", b3: "x", traceparent: "00-abc-01" }), {
    decides: null,
    problems: {
      "X-B3-TraceId": "upper-case letters: ids are lower-case hex (0-9, a-f)",
      "X-B3-SpanId": "3 digits: a span id has 16",
      b3: "a lone value is a sampling decision: 0, 1 or d",
      traceparent: "it has four parts: 00-{32 hex trace id}-{16 hex parent id}-{2 hex flags}",
    },
  });
  assert.deepEqual(traceHeaders({}), { decides: null, problems: {} });
  assert.throws(() => traceHeaders(null), TypeError);
});
