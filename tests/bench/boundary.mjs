// How answers should cross the boundary, measured in Node and headless
// Chromium on one build: the `boundary-bench` feature adds exports that
// build JS objects field by field with serde-wasm-bindgen (the binding's
// old way) beside the package's JSON text, and requests passed as
// wasm-bindgen arguments beside the package's scratch region
// (src/js/crossing.js). Four ways for an envelope:
//   object: arguments in, serde-wasm-bindgen builds the answer in the call;
//   JSON.parse: arguments in, JSON text out, V8's JSON.parse builds it;
//   scratch: the parts written into the scratch region, one call, the
//         JSON text read from it and parsed (the package's way);
//   scratch text: the same, the text used as it is (what the fetch and
//         MSW adapters send as the response body).
// and two for the log (10,000 records). Calls go to the raw exports, so
// only the boundary differs. Prints calls per second, the best of rounds
// that take turns.
//   node tests/bench/boundary.mjs [calls, default 100000]
import { execFileSync } from "node:child_process";
import { createServer } from "node:http";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { launchChromium } from "../chromium.mjs";

const root = new URL("../..", import.meta.url).pathname;
const out = join(root, "target", "boundary-bench-pkg");
const calls = Number(process.argv[2] ?? 100000);

execFileSync("cargo", ["build", "--quiet", "--release", "--lib", "--target", "wasm32-unknown-unknown", "--features", "boundary-bench"], { cwd: root, stdio: "inherit" });
execFileSync("wasm-bindgen", ["--target", "web", "--out-dir", out, join(root, "target/wasm32-unknown-unknown/release/orderpay.wasm")], { cwd: root, stdio: "inherit" });

/** Runs in Node and in the page: no imports, the glue and crossing modules are passed in. */
async function measure({ glue, memory, crossing, calls }) {
  const { RawService } = glue;
  const { Crossing } = crossing;
  /** Best calls per second of each way, over rounds that take turns, so load hits all alike. */
  const race = (ways, n, rounds) => {
    const top = Object.fromEntries(Object.keys(ways).map((k) => [k, 0]));
    for (let round = 0; round < rounds; round++) {
      for (const [name, fn] of Object.entries(ways)) {
        const start = performance.now();
        for (let i = 0; i < n; i++) fn(i);
        top[name] = Math.max(top[name], n / ((performance.now() - start) / 1000));
      }
    }
    return Object.fromEntries(Object.entries(top).map(([k, v]) => [k, Math.round(v)]));
  };
  const s = new RawService(1, 0, undefined, undefined, 0, undefined);
  const body = JSON.stringify({ userId: "u-1", price: 25.5, description: "two coffees" });
  const created = JSON.parse(s.handleArguments("POST", "/api/order/create", body, []));
  const path = `/api/order/${created.data.orderId}`;
  const c = new Crossing(s, () => memory);
  const get = { method: "GET", path, body: undefined, bytes: undefined, headers: [], left: undefined };
  let sink = 0;
  const read = race({
    object: () => { sink += s.handleObject("GET", path, undefined, []).code; },
    "JSON.parse": () => { sink += JSON.parse(s.handleArguments("GET", path, undefined, [])).code; },
    scratch: () => { sink += JSON.parse(c.handle(get)).code; },
    "scratch text": () => { sink += c.handle(get).length; },
  }, calls / 10, 10);
  const journal = new RawService(2, 0, 10000, undefined, 0, undefined);
  for (let i = 0; i < 4000; i++) journal.handleArguments("POST", "/api/order/create", body, []);
  const logs = race({
    object: () => { sink += journal.logsObject().length; },
    "JSON.parse": () => { sink += JSON.parse(journal.logs(undefined)).length; },
  }, 4, 8);
  s.free();
  journal.free();
  return { read, logs, sink: sink > 0 };
}

function print(where, r) {
  console.log(JSON.stringify({ where, envelopeCallsPerSecond: r.read, logsOf10000RecordsPerSecond: r.logs }));
  const base = r.read.object;
  const x = (name) => `${(r.read[name] / base).toFixed(2)}x`;
  console.log(`${where}: against the object built field by field, an envelope by JSON.parse is ${x("JSON.parse")}, through the scratch region ${x("scratch")} (as text ${x("scratch text")}); the log by JSON.parse ${(r.logs["JSON.parse"] / r.logs.object).toFixed(2)}x`);
}

const glue = await import(join(out, "orderpay.js"));
const { memory } = glue.initSync({ module: readFileSync(join(out, "orderpay_bg.wasm")) });
const crossing = await import(join(root, "src/js/crossing.js"));
print("Node", await measure({ glue, memory, crossing, calls }));

// The same build served to Chromium from loopback.
// The package's crossing.js and utf8_fallback.js are served from src/js/.
const server = createServer((req, res) => {
  const js = /^\/(crossing|text)\.js$/.test(req.url) ? join(root, "src/js", req.url.slice(1)) : null;
  const file = req.url === "/" ? null : js ?? join(out, req.url.slice(1));
  if (!file) {
    res.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><title>boundary</title>");
    return;
  }
  let bytes;
  try {
    bytes = readFileSync(file);
  } catch {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { "content-type": file.endsWith(".wasm") ? "application/wasm" : "text/javascript" }).end(bytes);
}).listen(0, "127.0.0.1");
await new Promise((resolve) => server.once("listening", resolve));
const browser = await launchChromium();
try {
  const page = await browser.newPage();
  const base = `http://127.0.0.1:${server.address().port}`;
  await page.goto(base + "/");
  const r = await page.evaluate(
    async ({ base, source, calls }) => {
      const glue = await import(`${base}/orderpay.js`);
      const { memory } = await glue.default();
      const crossing = await import(`${base}/crossing.js`);
      return new Function(`return (${source})`)()({ glue, memory, crossing, calls });
    },
    { base, source: measure.toString(), calls },
  );
  print("Chromium", r);
} finally {
  await browser.close();
  server.close();
}
