// logs(), spans() and exportOtlp(), which build their objects in JS from
// the module's tape (src/js/tape.js), against JSON.parse of the same
// reads' JSON text (what they did before: the module wrote the text, JS
// parsed it; JSON.parse alone is measured, so the peer is given the
// writing and the decoding for free). In Node and in headless Chromium,
// on one service with a full journal, rounds taking turns, best of each.
// Prints JSON lines; `ratio` is the tape's time over JSON.parse's. With
// BEFORE=dir (an older build of the package), that build's same read is
// timed in the same rounds too (`beforeMs`, `overBefore`): its whole
// read, text written, decoded and parsed.
// Usage: node tests/bench/tape.mjs [records] [rounds]
// (build the package first: source .ci/lib.sh; build_package).
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import { join, normalize } from "node:path";

import { launchChromium } from "../chromium.mjs";

const records = Number(process.argv[2] ?? 100000);
const rounds = Number(process.argv[3] ?? 5);

/** Runs where it is sent (Node, or a page): the race, one read at a time. */
async function race({ records, rounds, Service, Before }) {
  const full = (S) => {
    const s = new S({ seed: 1, virtualTime: 0, logCapacity: records });
    while (s.droppedLogs === 0) s.handle("GET", "/api/test/order/batch?count=1000");
    return s;
  };
  const s = full(Service);
  const b = Before ? full(Before) : null;
  let otlp = "";
  for (const piece of s.exportOtlpPieces()) otlp += piece;
  const texts = {
    "logs()": JSON.stringify(s.logs()),
    "spans()": JSON.stringify(s.spans()),
    "exportOtlp()": otlp,
  };
  const reads = { "logs()": () => s.logs(), "spans()": () => s.spans(), "exportOtlp()": () => s.exportOtlp() };
  const out = [];
  for (const [what, read] of Object.entries(reads)) {
    const text = texts[what];
    let tape = Infinity;
    let parse = Infinity;
    let before = Infinity;
    for (let i = 0; i < rounds; i++) {
      let start = performance.now();
      read();
      tape = Math.min(tape, performance.now() - start);
      start = performance.now();
      JSON.parse(text);
      parse = Math.min(parse, performance.now() - start);
      if (b) {
        start = performance.now();
        ({ "logs()": () => b.logs(), "spans()": () => b.spans(), "exportOtlp()": () => b.exportOtlp() })[what]();
        before = Math.min(before, performance.now() - start);
      }
    }
    const line = { what, records, tapeMs: +tape.toFixed(1), jsonParseMs: +parse.toFixed(1), ratio: +(tape / parse).toFixed(2) };
    if (b) Object.assign(line, { beforeMs: +before.toFixed(1), overBefore: +(tape / before).toFixed(2) });
    out.push(line);
  }
  s.free();
  b?.free();
  return out;
}

const pkg = new URL("../../pkg/", import.meta.url).pathname;
const before = process.env.BEFORE ?? null;
const { Service } = await import(join(pkg, "node.js"));
const Before = before ? (await import(join(before, "node.js"))).Service : null;
for (const line of await race({ records, rounds, Service, Before })) console.log(JSON.stringify({ where: "Node", ...line }));

/** The package at /new/, the older build at /old/; loopback only. */
const TYPES = { ".js": "text/javascript", ".wasm": "application/wasm", ".json": "application/json" };
const server = createServer(async (req, res) => {
  const path = normalize(decodeURIComponent(new URL(req.url, "http://x").pathname)).replace(/^(\.\.[/\\])+/, "");
  const [, where, ...rest] = path.split("/");
  const root = where === "new" ? pkg : where === "old" && before ? before : null;
  try {
    if (root === null) throw new Error("no such place");
    const file = join(root, ...rest);
    const body = await readFile(file);
    res.writeHead(200, { "content-type": TYPES[file.slice(file.lastIndexOf("."))] ?? "text/plain" });
    res.end(body);
  } catch {
    res.writeHead(404).end();
  }
});
await new Promise((done) => server.listen(0, "127.0.0.1", done));
const browser = await launchChromium();
try {
  const page = await browser.newPage();
  const base = `http://127.0.0.1:${server.address().port}`;
  await page.goto(`${base}/new/package.json`);
  const lines = await page.evaluate(
    async ({ base, race, records, rounds, before }) => {
      const load = async (where) => {
        const m = await import(`${base}/${where}/orderpay.js`);
        await m.default();
        return m.Service;
      };
      const run = new Function(`return (${race})`)();
      return run({ records, rounds, Service: await load("new"), Before: before ? await load("old") : null });
    },
    { base, race: race.toString(), records, rounds, before: before !== null },
  );
  for (const line of lines) console.log(JSON.stringify({ where: "Chromium", ...line }));
} finally {
  await browser.close();
  server.close();
}
