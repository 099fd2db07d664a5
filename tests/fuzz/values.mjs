// The fuzzer's inputs: valid and broken methods, paths (the challenge
// page's too), bodies (pays with test cards and returnUrls) and
// headers, and hostile JS values (throwing getters, revoked proxies,
// endless iterators, lying typed arrays, Symbols, BigInts, huge strings,
// a toJSON that throws an error whose message getter throws...). Each
// generator takes the seeded random source and what the service has made
// so far (ids), so that valid requests reach deep into the state machines.

/** A seeded generator (xorshift128+ folded to 32 bits): the same seed, the same run. */
export function random(seed) {
  let a = (seed ^ 0x9e3779b9) >>> 0 || 1;
  let b = (seed * 2654435761) >>> 0 || 2;
  const next = () => {
    let t = a ^ (a << 11);
    a = b;
    b = (b ^ (b >>> 19) ^ (t ^ (t >>> 8))) >>> 0;
    return b / 4294967296;
  };
  return {
    next,
    int: (n) => Math.floor(next() * n),
    pick: (list) => list[Math.floor(next() * list.length)],
    chance: (p) => next() < p,
  };
}

// Built once: making a 2 MiB string on every call would measure nothing but that.
const HUGE = "x".repeat(2 * 1024 * 1024);
const HUGE_JSON = JSON.stringify({ userId: "u", price: 1, description: "d".repeat(1024 * 1024) });
const HUGE_BYTES = new Uint8Array(1024 * 1024 + 1).fill(0x20);
const LONG_PATH = "/api/order/" + "A".repeat(9000);
const MANY_HEADERS = Array.from({ length: 1001 }, (_, i) => [`x-h${i}`, "v"]);
const BIG_HEADER = { "x-big": "b".repeat(64 * 1024) };
const HUNDRED_THOUSAND_PAIRS = new Array(100000).fill(["a", "b"]);
const MANY_KEYS = Object.fromEntries(Array.from({ length: 1500 }, (_, i) => [`k${i}`, ""]));
const ENDLESS_PAIRS = {
  [Symbol.iterator]() {
    return { next: () => ({ done: false, value: ["x-again", "1"] }) };
  },
};

function revoked() {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

function throwingGetter(name) {
  return Object.defineProperty({}, name, {
    enumerable: true,
    get() {
      throw new Error(`${name} getter`);
    },
  });
}

/** An Error whose message getter throws, or a Proxy that throws on every trap. */
function poisonedError(r) {
  if (r.chance(0.5)) {
    const e = new Error("x");
    Object.defineProperty(e, "message", {
      get() {
        throw new Error("message getter");
      },
    });
    return e;
  }
  return new Proxy(new Error("x"), {
    get() {
      throw new Error("message trap");
    },
    getPrototypeOf() {
      throw new Error("prototype trap");
    },
  });
}

class LyingBytes extends Uint8Array {
  get length() {
    return 2;
  }
}

class ThrowingLength extends Uint8Array {
  get length() {
    throw new Error("len");
  }
}

const ROUTES = [
  ["POST", "/api/order/create"],
  ["GET", "/api/order/{order}"],
  ["POST", "/api/order/{order}/pay"],
  ["POST", "/api/order/delete/{order}"],
  ["POST", "/api/payment/pay"],
  ["GET", "/api/payment/{payment}"],
  ["POST", "/api/payment/refund/{payment}"],
  ["GET", "/api/test/order/batch?count={count}"],
  ["GET", "/api/payment/{payment}/challenge"],
  ["POST", "/api/payment/{payment}/challenge?outcome={outcome}"],
];

const HOSTILE = (r) =>
  r.pick([
    () => undefined,
    () => null,
    () => 42,
    () => 10n,
    () => Symbol("s"),
    () => () => "GET",
    () => ({}),
    () => [],
    () => revoked(),
    () => throwingGetter("x"),
    () => new Proxy({}, { get() { throw new Error("get trap"); } }),
    () => ({ toString() { throw new Error("toString"); } }),
    () => HUGE,
    () => new String("GET"),
  ])();

export function method(r) {
  if (r.chance(0.06)) return HOSTILE(r);
  if (r.chance(0.08)) return r.pick(["", "G ET", "DELETE", "PUT", "HEAD", "OPTIONS", "GET\n", "x".repeat(300), "ГЕТ", "P0ST"]);
  return null; // the route's own method
}

function id(r, ids, kind) {
  const list = kind === "order" ? ids.orders : ids.payments;
  if (list.length && r.chance(0.8)) return r.pick(list);
  return r.pick([`${kind === "order" ? "ORD" : "PAY"}-NOPE0000`, "x", "", "ORD-", "%00", "ORD-ÄÖÜ00000", "A".repeat(40)]);
}

export function path(r, ids, route) {
  if (r.chance(0.05)) return HOSTILE(r);
  if (r.chance(0.04)) return r.pick([LONG_PATH, "", "api/order/create", "/api/ordr/create", "/API/ORDER/CREATE", "/api/order/create/", "/api/order/create#x", "/api/order/create?x=1&&=&y", "/", "/\u0000", "/api/test/order/batch?count=%31"]);
  return route[1]
    .replace("{order}", () => id(r, ids, "order"))
    .replace("{payment}", () => id(r, ids, "payment"))
    .replace("{count}", () => String(r.pick([1, 2, 3, 0, -1, 10001, "x", "", "1e2", " 2"])))
    .replace("{outcome}", () => r.pick(["pass", "fail", "abandon", "PASS", "", "maybe", "pass&outcome=fail", "%70ass"]));
}

function createFields(r) {
  const fields = { userId: r.pick(["u-1", "u-2", "", " ", "\u0007", "x".repeat(65), 7, null]), price: r.pick([9.99, 1, 0, -1, "12", 1e308, null, true]) };
  if (r.chance(0.5)) fields.description = r.pick(["tea", "", null, 5, "d".repeat(1001)]);
  if (r.chance(0.1)) fields.extra = { nested: [1, 2, 3] };
  return fields;
}

/** Test cards (one that waits for a challenge, goes pending, is reversed, is declined) and ones no table has. */
const CARDS = ["4000002500003155", "4000 0082 6000 3178", "4000084000000014", "4000084000000022", "4000000000000259", "4000000000009995", "4242 4242 4242 4242", "4242-4242-4242-4242", "", "4".repeat(5000), 4242424242424242, null, ["4242424242424242"]];
const RETURN_URLS = ["/back", "https://shop.example/r?x=1#top", "//evil.example", "javascript:alert(1)", "/a\nb", "http://", "/" + "a".repeat(2048), 7, null];

function payFields(r, ids) {
  const fields = {
    orderId: r.chance(0.1) ? r.pick([5, null, ""]) : id(r, ids, "order"),
    amount: r.pick([9.99, 1, 0, -5, "1", null, 1e-300]),
    paymentMethod: r.pick(["CARD", "WALLET_A", "WALLET_B", "card", "", null, 3]),
  };
  if (r.chance(0.3)) fields.cardNumber = r.pick(CARDS);
  if (r.chance(0.15)) fields.returnUrl = r.pick(RETURN_URLS);
  return fields;
}

export function body(r, ids, route) {
  const reads = route[1] === "/api/order/create" || route[1] === "/api/payment/pay";
  const fields = () => (route[1] === "/api/payment/pay" ? payFields(r, ids) : createFields(r));
  const roll = r.next();
  if (roll < 0.4 && reads) return JSON.stringify(fields());
  if (roll < 0.55 && reads) return fields();
  if (roll < 0.62) return null;
  if (roll < 0.64) return new TextEncoder().encode(JSON.stringify(fields()));
  return r.pick([
    () => undefined,
    () => "{not json",
    () => "[]",
    () => '{"userId":"u","userId":"v","price":1}',
    () => "{}",
    () => "  ",
    () => "[".repeat(200) + "]".repeat(200),
    () => '{"a":' + "[".repeat(130) + "]".repeat(130) + "}",
    () => HUGE,
    () => HUGE_JSON,
    () => HUGE_BYTES,
    () => new Uint8Array([0xff, 0xfe]),
    () => new Uint8Array(0),
    () => new LyingBytes(new TextEncoder().encode('{"userId":"u","price":1}')),
    () => new ThrowingLength(4),
    () => new Proxy(new Uint8Array([123, 125]), {}),
    () => {
      const bytes = new Uint8Array(new ArrayBuffer(8));
      structuredClone(bytes.buffer, { transfer: [bytes.buffer] });
      return bytes; // detached
    },
    () => Buffer.from('{"userId":"u","price":2}'),
    () => ({ toJSON() { throw poisonedError(r); } }),
    () => ({ toJSON() { throw new Error("toJSON"); } }),
    () => ({ toJSON: () => ({ userId: "u", price: 3 }) }),
    () => revoked(),
    () => throwingGetter("userId"),
    () => new Proxy({ userId: "u" }, { ownKeys() { throw new Error("ownKeys"); } }),
    () => {
      const o = {};
      o.self = o;
      return o;
    },
    () => 10n,
    () => ({ price: 10n }),
    () => Symbol("body"),
    () => () => 1,
    () => 42,
    () => true,
    () => [1, 2],
    () => new Map([["userId", "u"]]),
    () => new Date(0),
    () => "\ud800",
  ])();
}

function traceHeaders(r) {
  return r.pick([
    () => ({ "X-B3-TraceId": r.pick(["463ac35c9f6413ad", "463ac35c9f6413ad48485a3953bb6124", "0000000000000000", "XYZ", ""]) }),
    () => ({ traceparent: r.pick(["00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00", "garbage", "00-" + "0".repeat(32) + "-00f067aa0ba902b7-01"]) }),
    () => ({ b3: r.pick(["80f198ee56343ba864fe8b2a57d3eff7-e457b5a2e4d86bd1-1", "0", "d", "bad"]) }),
    () => ({ "X-B3-Sampled": r.pick(["0", "1", "true"]), "X-B3-SpanId": "e457b5a2e4d86bd1" }),
  ])();
}

export function headers(r, route) {
  const roll = r.next();
  if (roll < 0.3) return undefined;
  if (roll < 0.45) return { "Content-Type": r.pick(["application/json", "application/vnd.x+json", "text/plain", "", "application/json; charset=utf-8"]) };
  if (roll < 0.55) return { "X-User-Id": r.pick(["alice", "", "x".repeat(200)]), ...(r.chance(0.5) ? traceHeaders(r) : {}) };
  if (roll < 0.62 && route[1] === "/api/payment/pay") return { "X-Sim-Outcome": r.pick(["success", "failure", "SUCCESS", "maybe", ""]) };
  if (roll < 0.68) return new Headers({ "content-type": "application/json", ...traceHeaders(r) });
  if (roll < 0.72) return [["Content-Type", "application/json"], ["x-user-id", "bob"]];
  if (roll < 0.74) return new Map([["X-User-Id", "carol"]]);
  return r.pick([
    () => null,
    () => "a string",
    () => 42,
    () => revoked(),
    () => new Proxy({}, { ownKeys() { throw new Error("no keys"); } }),
    () => ({ [Symbol.iterator]() { throw new Error("no iterator"); } }),
    () => ({ [Symbol.iterator]() { return { next() { return {}; } }; } }),
    () => ({ [Symbol.iterator]() { return { next() { throw new Error("next"); } }; } }),
    () => ({ [Symbol.iterator]() { return { next() { return throwingGetter("done"); } }; } }),
    () => ({ [Symbol.iterator]() { return { next() { return Object.defineProperty({ done: false }, "value", { get() { throw new Error("value"); } }); } }; } }),
    () => ({ [Symbol.iterator]() { return { next: () => 5 }; } }),
    () => ENDLESS_PAIRS,
    () => [[{ [Symbol.iterator]: function* () { for (;;) yield "x"; } }, "v"]],
    () => [{ [Symbol.iterator]: function* () { for (;;) yield "x"; } }],
    () => ({ "X-User-Id": {} }),
    () => ({ "X-User-Id": Symbol("u") }),
    () => ({ "X-User-Id": 10n }),
    () => ({ "X-User-Id": 7, "X-Flag": true }),
    () => throwingGetter("X-User-Id"),
    () => [["a"], [1, 2]],
    () => [null],
    () => MANY_HEADERS,
    () => BIG_HEADER,
    () => HUNDRED_THOUSAND_PAIRS,
    () => MANY_KEYS,
  ])();
}

export { ROUTES, HOSTILE as hostile };
