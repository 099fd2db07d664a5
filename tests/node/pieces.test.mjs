// The incremental forms through the package: snapshotPieces,
// exportNdjsonPieces and exportOtlpPieces joined equal the one-shot texts
// whatever is served between pieces; Service.restoring() fed pieces (split
// anywhere, even between the halves of an emoji) makes the same service,
// refuses damage as Service.restore does, and touches nothing else.
//
// Needs the built package: `source .ci/lib.sh && build_package` (CI does it).
import assert from "node:assert/strict";
import { test } from "node:test";

const { default: init, Service } = await import(new URL("../../pkg/node.js", import.meta.url).href);

function busy() {
  const s = new Service({ seed: 3, virtualTime: 0, logCapacity: 3000 });
  s.handle("GET", "/api/test/order/batch?count=1200");
  const made = s.handle("POST", "/api/order/create", { userId: "u-😀", price: 2.5, description: "émoji 😀 \u2028" });
  s.handle("POST", "/api/payment/pay", { orderId: made.data.orderId, amount: 2.5, paymentMethod: "CARD" });
  s.forceNext("failure", 2);
  return s;
}

/** Splits text into pieces of `size` UTF-16 units, wherever that falls. */
function split(text, size) {
  const pieces = [];
  for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
  return pieces;
}

test("pieces joined are the one-shot texts, and serving between pieces does not tear them", () => {
  const s = busy();
  const snapshot = s.snapshot();
  const ndjson = s.exportNdjson();
  const otlp = s.exportOtlp();
  const cursors = [s.snapshotPieces({ size: 5000 }), s.exportNdjsonPieces({ size: 5000 }), s.exportOtlpPieces({ size: 5000 })];
  const texts = ["", "", ""];
  let rounds = 0;
  for (;;) {
    let any = false;
    cursors.forEach((cursor, i) => {
      const { done, value } = cursor.next();
      if (!done) {
        assert.equal(typeof value, "string");
        texts[i] += value;
        any = true;
      }
    });
    if (!any) break;
    rounds += 1;
    s.handle("GET", "/api/test/order/batch?count=30");
    if (rounds % 7 === 0) s.clearLogs();
  }
  assert.ok(rounds > 20, `${rounds} rounds`);
  assert.notEqual(s.snapshot(), snapshot);
  assert.equal(texts[0], snapshot);
  assert.equal(texts[1], ndjson);
  assert.deepEqual(JSON.parse(texts[2]), otlp);
  for (const cursor of cursors) assert.equal(cursor.progress, 1);
  s.free();
});

test("each piece holds at least `size` bytes, and progress climbs to 1", () => {
  const s = busy();
  const pieces = s.snapshotPieces({ size: 20000 });
  const seen = [];
  let last = 0;
  for (const piece of pieces) {
    seen.push(piece);
    assert.ok(pieces.progress >= last && pieces.progress <= 1);
    last = pieces.progress;
  }
  assert.ok(seen.length > 10, `${seen.length} pieces`);
  for (const piece of seen.slice(0, -1)) assert.ok(Buffer.byteLength(piece) >= 20000);
  assert.equal(pieces.progress, 1);
  assert.deepEqual(pieces.next(), { done: true, value: undefined });
  s.free();
});

test("leaving early frees the copy; a freed service refuses new pieces", () => {
  const s = busy();
  const pieces = s.exportNdjsonPieces({ size: 100 });
  for (const piece of pieces) {
    assert.ok(piece.endsWith("\n"));
    break;
  }
  assert.deepEqual(pieces.next(), { done: true, value: undefined });
  assert.equal(pieces.progress, 1);
  s.free();
  assert.throws(() => s.snapshotPieces(), { name: "TypeError", message: /freed/ });
});

test("a bad size is refused with the option named", () => {
  const s = busy();
  for (const [options, name] of [
    [{ size: 0 }, "RangeError"],
    [{ size: 1.5 }, "RangeError"],
    [{ size: 2 ** 31 }, "RangeError"],
    [{ size: "10" }, "TypeError"],
    [7, "TypeError"],
  ]) {
    assert.throws(() => s.exportOtlpPieces(options), (e) => e.name === name && e.message.startsWith("options"));
  }
  s.free();
});

test("a restore fed in pieces makes the same service as Service.restore", () => {
  const s = busy();
  const snapshot = s.snapshot();
  for (const size of [1, 7, 1000, 65536]) {
    const restoring = Service.restoring();
    for (const piece of split(snapshot, size)) restoring.push(piece);
    assert.equal(restoring.received, snapshot.length);
    const restored = restoring.finish();
    const whole = Service.restore(snapshot);
    assert.equal(restored.snapshot(), snapshot, `size ${size}`);
    assert.deepEqual(restored.handle("GET", "/api/test/order/batch?count=3"), whole.handle("GET", "/api/test/order/batch?count=3"));
    assert.equal(restored.snapshot(), whole.snapshot());
    restored.free();
    whole.free();
    assert.throws(() => restoring.push("x"), { name: "TypeError", message: /over/ });
  }
  // Straight from a snapshot written in pieces.
  const restoring = Service.restoring();
  for (const piece of s.snapshotPieces({ size: 4096 })) restoring.push(piece);
  assert.equal(restoring.finish().snapshot(), snapshot);
  s.free();
});

test("damage in any piece is refused as Service.restore refuses it, and nothing else changes", () => {
  const s = busy();
  const snapshot = s.snapshot();
  const before = s.snapshot();
  const cases = [
    snapshot.replace('"failureRate":0.3', '"failureRate":2'),
    snapshot.replace('"seq":', '"seq":-1,"x":'),
    snapshot.replace('"clock":', '"clock":1e300,"x":'),
    snapshot.slice(0, snapshot.length >> 1),
    snapshot.slice(0, -1),
    `${snapshot}x`,
    snapshot.replace('"orderId":"', '"orderId":"Z'),
  ];
  for (const text of cases) {
    let whole;
    try {
      Service.restore(text);
    } catch (e) {
      whole = e;
    }
    assert.ok(whole, text.slice(0, 80));
    for (const size of [3, 4096]) {
      const restoring = Service.restoring();
      let error;
      try {
        for (const piece of split(text, size)) restoring.push(piece);
        restoring.finish();
      } catch (e) {
        error = e;
      }
      assert.equal(error?.name, whole.name);
      assert.equal(error?.message, whole.message);
      assert.throws(() => restoring.finish(), { name: "TypeError", message: /over/ });
    }
  }
  assert.equal(s.snapshot(), before);
  s.free();
});

test("a restore can be abandoned, and a piece must be a string", () => {
  const restoring = Service.restoring();
  assert.throws(() => restoring.push(42), { name: "TypeError", message: /^piece: / });
  restoring.push('{"format":1');
  restoring.abandon();
  restoring.abandon();
  assert.throws(() => restoring.finish(), { name: "TypeError" });
});

test("restoring({ length }) makes room for the text at once, and the option is checked", async () => {
  const { memory } = await init();
  const s = busy();
  const snapshot = s.snapshot();
  // More than the memory holds now: the room can only come from growing it, at the call.
  const length = memory.buffer.byteLength + 8 * 2 ** 20;
  const before = memory.buffer.byteLength;
  const restoring = Service.restoring({ length });
  const made = memory.buffer.byteLength;
  assert.ok(made - before >= 8 * 2 ** 20, `memory grew by ${made - before} bytes at the call`);
  for (const piece of split(snapshot, 4096)) restoring.push(piece);
  assert.equal(memory.buffer.byteLength, made, "a push grew the memory");
  assert.equal(restoring.finish().snapshot(), snapshot);
  // A shorter length is a hint too: the rest comes as it would without it.
  const short = Service.restoring({ length: 10 });
  for (const piece of split(snapshot, 4096)) short.push(piece);
  assert.equal(short.finish().snapshot(), snapshot);
  for (const options of [{}, { length: undefined }, undefined, null, { length: 0 }]) Service.restoring(options).abandon();
  const refusals = [
    [5, TypeError, /^options: expected an object/],
    [{ length: "100" }, TypeError, /^options\.length: expected the snapshot text's length/],
    [{ length: -1 }, RangeError, /^options\.length: expected a whole number from 0 to 1073741824, got -1$/],
    [{ length: 1.5 }, RangeError, /^options\.length: .* got 1\.5$/],
    [{ length: NaN }, RangeError, /^options\.length: .* got NaN$/],
    [{ length: 2 ** 30 + 1 }, RangeError, /^options\.length: .* got 1073741825$/],
    [{ get length() { throw new Error("getter"); } }, TypeError, /^options\.length: could not be read$/],
    [Proxy.revocable({}, {}), TypeError, /^options\.length: could not be read$/],
  ];
  for (const [options, type, message] of refusals) {
    let given = options;
    if (options?.revoke) { given = options.proxy; options.revoke(); }
    assert.throws(() => Service.restoring(given), (e) => e instanceof type && message.test(e.message), String(message));
  }
  s.free();
});

/** Runs a restore's steps with a budget of 0 (one step a call); the steps taken. */
function stepped(restoring) {
  let steps = 0;
  while (!restoring.done) {
    restoring.step(0);
    steps += 1;
  }
  return steps;
}

test("a restore finished in steps makes the same service, a bounded share of rows a step", () => {
  // More orders, payments and records than a step checks (2,048 rows).
  const s = new Service({ seed: 5, virtualTime: 0, logCapacity: 10000 });
  s.handle("GET", "/api/test/order/batch?count=9000");
  const snapshot = s.snapshot();
  const restoring = Service.restoring();
  for (const piece of s.snapshotPieces({ size: 65536 })) restoring.push(piece);
  assert.equal(restoring.done, false);
  // The end of the reading, then at least 5 steps each of orders, attempts, payments and records.
  assert.ok(stepped(restoring) >= 20);
  assert.equal(restoring.done, true);
  assert.equal(restoring.step(5), true);
  const restored = restoring.finish();
  const whole = Service.restore(snapshot);
  assert.equal(restored.snapshot(), snapshot);
  assert.deepEqual(restored.handle("GET", "/api/test/order/batch?count=3"), whole.handle("GET", "/api/test/order/batch?count=3"));
  restored.free();
  whole.free();
  // A budget runs steps until it is spent: one call can do them all.
  const again = Service.restoring();
  again.push(snapshot);
  assert.equal(again.step(60000), true);
  assert.equal(again.finish().snapshot(), snapshot);
  s.free();
});

test("damage found by a step is refused as Service.restore refuses it, and the restore is over", () => {
  const s = busy();
  const snapshot = s.snapshot();
  const before = s.snapshot();
  const last = (text, pattern, value) => {
    const at = text.lastIndexOf(pattern);
    return text.slice(0, at) + text.slice(at).replace(new RegExp(`${pattern}\\d+`), `${pattern}${value}`);
  };
  const cases = [
    snapshot.replace('"failureRate":0.3', '"failureRate":2'),
    snapshot.replace('"clock":', '"clock":1e300,"x":'),
    snapshot.slice(0, snapshot.length >> 1),
    `${snapshot}x`,
    // Found by the checks, late in their rows.
    last(snapshot, '"createdAt":', 9999999999999999),
    last(snapshot, '"paidAt":', 9999999999999999),
    last(snapshot, '"logCapacity":', 2999),
  ];
  for (const text of cases) {
    let whole;
    try {
      Service.restore(text);
    } catch (e) {
      whole = e;
    }
    assert.ok(whole, text.slice(0, 80));
    const restoring = Service.restoring();
    let error;
    try {
      for (const piece of split(text, 4096)) restoring.push(piece);
      stepped(restoring);
      restoring.finish();
    } catch (e) {
      error = e;
    }
    assert.equal(error?.name, whole.name);
    assert.equal(error?.message, whole.message);
    assert.throws(() => restoring.step(), { name: "TypeError", message: /over/ });
    assert.throws(() => restoring.finish(), { name: "TypeError", message: /over/ });
  }
  assert.equal(s.snapshot(), before);
  s.free();
});

test("once a step is taken no piece may follow; a budget must be a number of ms; a stepped restore can be abandoned", () => {
  const s = busy();
  const snapshot = s.snapshot();
  const restoring = Service.restoring();
  restoring.push(snapshot);
  for (const budget of [-1, Number.NaN, Infinity, "5"]) {
    assert.throws(() => restoring.step(budget), { name: "RangeError", message: /^budgetMs: / });
  }
  restoring.step(0);
  assert.throws(() => restoring.push("x"), { name: "TypeError", message: /no more pieces/ });
  // Still whole after the refused piece.
  stepped(restoring);
  assert.equal(restoring.finish().snapshot(), snapshot);
  const abandoned = Service.restoring();
  abandoned.push(snapshot);
  abandoned.step(0);
  abandoned.abandon();
  assert.throws(() => abandoned.step(0), { name: "TypeError", message: /over/ });
  assert.throws(() => abandoned.finish(), { name: "TypeError", message: /over/ });
  s.free();
});
