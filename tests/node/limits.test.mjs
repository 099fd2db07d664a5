// Time and snapshots at the JS edge, through the installed package: a clock
// a JS Date cannot hold is refused where it comes in, with the error of its
// kind, and a damaged snapshot is refused whole, naming the field; what is
// accepted keeps answering, with numbers JS holds exactly.
import assert from "node:assert/strict";
import { before, test } from "node:test";

import { makeConsumer } from "./consumer.mjs";

let app;
before(() => {
  app = makeConsumer();
});

/** Runs a script in the consumer app and parses the JSON it prints. */
function run(name, body) {
  const source = `import { Service } from "orderpay";
const caught = (f) => { try { f(); return null; } catch (e) { return { type: e.constructor.name, message: e.message }; } };
${body}`;
  return JSON.parse(app.run(name, source));
}

test("virtualTime and advance beyond a JS Date are RangeErrors, and the clock stays", () => {
  const out = run(
    "clock.mjs",
    `const end = 8640000000000000;
     const tooLate = caught(() => new Service({ seed: 1, virtualTime: 9007199254740991 }));
     const s = new Service({ seed: 1, virtualTime: end - 1 });
     const past = caught(() => s.advance(1e300));
     const negative = caught(() => s.advance(-1));
     const text = caught(() => s.advance("5"));
     const before = s.now;
     const order = s.request("POST", "/api/order/create", { userId: "u", price: 1 });
     const logs = s.logs();
     console.log(JSON.stringify({ tooLate, past, negative, text, before, status: order.status,
       code: order.body.code, logsIsArray: Array.isArray(logs),
       last: logs[logs.length - 1].timestamp, now: s.now, end }));`,
  );
  assert.equal(out.tooLate.type, "RangeError");
  assert.match(out.tooLate.message, /^virtualTime: must be a whole number of milliseconds from -8640000000000000 to 8640000000000000/);
  assert.equal(out.past.type, "RangeError");
  assert.match(out.past.message, /^ms: /);
  assert.equal(out.negative.type, "RangeError");
  assert.equal(out.text.type, "TypeError");
  assert.equal(out.before, out.end - 1);
  // The request is answered, its clock stopping at the end of time.
  assert.equal(out.status, 200);
  assert.equal(out.code, 0);
  assert.equal(out.logsIsArray, true);
  assert.equal(out.last, out.end);
  assert.equal(out.now, out.end);
});

test("a damaged snapshot is a TypeError or RangeError naming its first bad field", () => {
  const out = run(
    "restore.mjs",
    `const s = new Service({ seed: 1, virtualTime: 1700000000000 });
     s.request("POST", "/api/order/create", { userId: "u", price: 1 });
     const text = s.snapshot();
     const seq = caught(() => Service.restore(text.replace(/"next_seq":\\d+/, '"next_seq":18446744073709551615')));
     const clock = caught(() => Service.restore(text.replace(/"clock":\\d+/, '"clock":-9223372036854775801')));
     const type = caught(() => Service.restore(text.replace(/"seed":1,/, '"seed":"1",')));
     const garbage = caught(() => Service.restore("{}"));
     const ok = Service.restore(text);
     const again = ok.request("POST", "/api/order/create", { userId: "v", price: 2 });
     console.log(JSON.stringify({ seq, clock, type, garbage, code: again.body.code, logs: ok.logs().length }));`,
  );
  assert.equal(out.seq.type, "RangeError");
  assert.equal(out.seq.message, "snapshot.journal.next_seq: must be a whole number from 1 to 9007199254740991, got 18446744073709551615");
  assert.equal(out.clock.type, "RangeError");
  assert.match(out.clock.message, /^snapshot\.clock: /);
  assert.equal(out.type.type, "TypeError");
  assert.match(out.type.message, /^snapshot\.settings\.seed: invalid type: string "1"/);
  assert.equal(out.garbage.type, "TypeError");
  assert.equal(out.garbage.message, "snapshot: missing field `format`");
  assert.equal(out.code, 0);
  assert.equal(out.logs, 6);
});
