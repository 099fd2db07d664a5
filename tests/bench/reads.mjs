// Reads and exports in Node through the package in pkg/ (build it first:
// source .ci/lib.sh; build_package), with the log full at 10,000 and at
// 100,000 records: each one-shot read (best of two, and the time per
// record), then each incremental form at its default piece size: the whole
// run, the pieces, and the longest single call, which is what a page
// waits for in one task; a restore fed in pieces is timed both with
// finish() doing the checks and with step(8) doing them, at each size and
// for a state of 100,000 orders. Prints JSON lines.
// Last, for each one-shot read, the time per record at the largest size
// over the time per record at the smallest (linear is 1; the aim is at
// most 1.5).
// Usage: node tests/bench/reads.mjs [records...]; PKG=dir measures the
// package in dir instead (an older build, say), without the incremental
// forms when it has none.
const pkg = process.env.PKG ? new URL(`file://${process.env.PKG.replace(/\/?$/, "/")}`) : new URL("../../pkg/", import.meta.url);
const { Service } = await import(new URL("node.js", pkg).href);

const sizes = process.argv.slice(2).map(Number);

const best = (times, run) => {
  let fastest = Infinity;
  for (let i = 0; i < times; i++) {
    const start = performance.now();
    run();
    fastest = Math.min(fastest, performance.now() - start);
  }
  return +fastest.toFixed(1);
};

/** Times each call of `step` until it says it is done: total and longest. */
function sliced(step) {
  let total = 0;
  let longest = 0;
  let calls = 0;
  for (;;) {
    const start = performance.now();
    const more = step();
    const ms = performance.now() - start;
    total += ms;
    longest = Math.max(longest, ms);
    calls += 1;
    if (!more) break;
  }
  return { ms: +total.toFixed(1), pieces: calls, longestMs: +longest.toFixed(1) };
}

/**
 * A restore fed in pieces of 262,144 characters (room made for the whole
 * text first), then finish(): each call
 * timed. With a `budgetMs`, the work after the last piece is done by
 * step(budgetMs) first, as a page does it (one call a task).
 */
function restoreInPieces(snapshot, { piece = 262144, budgetMs = null } = {}) {
  let restoring;
  let at = 0;
  let restored;
  const run = sliced(() => {
    if (!restoring) {
      // The text's length, as the playground passes it (older builds ignore it).
      restoring = Service.restoring({ length: snapshot.length });
      return true;
    }
    if (at < snapshot.length) {
      restoring.push(snapshot.slice(at, at + piece));
      at += piece;
      return true;
    }
    if (budgetMs !== null && !restoring.done) {
      restoring.step(budgetMs);
      return true;
    }
    restored = restoring.finish();
    return false;
  });
  if (restored.snapshot() !== snapshot) throw new Error("restoring: not the same service");
  restored.free();
  return budgetMs === null ? { pieceChars: piece, ...run } : { pieceChars: piece, budgetMs, ...run };
}

/** Time per record of each one-shot read, by read and then by size. */
const perRecord = new Map();

for (const records of sizes.length ? sizes : [10000, 100000]) {
  const s = new Service({ seed: 1, virtualTime: 0, logCapacity: records });
  while (s.droppedLogs === 0) s.handle("GET", "/api/test/order/batch?count=1000");
  const all = s.logs();
  const half = all[all.length >> 1].seq;
  const snapshot = s.snapshot();
  const reads = {
    "logs()": () => s.logs(),
    "logs(after)": () => s.logs(half),
    "spans()": () => s.spans(),
    "exportNdjson()": () => s.exportNdjson(),
    "exportOtlp()": () => s.exportOtlp(),
    "snapshot()": () => s.snapshot(),
    "Service.restore()": () => Service.restore(snapshot).free(),
  };
  for (const [what, read] of Object.entries(reads)) {
    const ms = best(2, read);
    console.log(JSON.stringify({ what, records, ms, usPerRecord: +((ms * 1000) / records).toFixed(2) }));
    if (!perRecord.has(what)) perRecord.set(what, new Map());
    perRecord.get(what).set(records, ms / records);
  }
  {
    // The floor under exportOtlp(): JSON.parse of the same text, which
    // builds the same objects.
    let text = "";
    if (typeof s.exportOtlpPieces === "function") for (const piece of s.exportOtlpPieces()) text += piece;
    else text = JSON.stringify(s.exportOtlp());
    const ms = best(2, () => JSON.parse(text));
    console.log(JSON.stringify({ what: "JSON.parse of exportOtlp()'s text", records, ms, chars: text.length }));
  }
  if (typeof s.snapshotPieces !== "function") {
    s.free();
    continue;
  }
  for (const what of ["snapshotPieces", "exportNdjsonPieces", "exportOtlpPieces"]) {
    let pieces;
    const run = sliced(() => {
      if (!pieces) {
        pieces = s[what]();
        return true;
      }
      return !pieces.next().done;
    });
    console.log(JSON.stringify({ what: `${what}()`, records, ...run }));
  }
  console.log(JSON.stringify({ what: "Service.restoring() push, finish", records, ...restoreInPieces(snapshot) }));
  if (typeof Service.restoring().step === "function") {
    console.log(JSON.stringify({ what: "Service.restoring() push, step, finish", records, ...restoreInPieces(snapshot, { budgetMs: 8 }) }));
  }
  s.free();
}

if (typeof Service.restoring === "function" && typeof Service.restoring().step === "function") {
  // A state of 100,000 orders (the playground's large state), restored in
  // pieces and steps: the longest call is what the page waits for.
  const orders = 100000;
  const s = new Service({ seed: 1, virtualTime: 0 });
  for (let made = 0; made < orders; made += 10000) s.handle("GET", "/api/test/order/batch?count=10000");
  const snapshot = s.snapshot();
  s.free();
  for (let run = 0; run < 2; run++) {
    console.log(JSON.stringify({ what: "Service.restoring() push, step, finish", orders, chars: snapshot.length, ...restoreInPieces(snapshot, { budgetMs: 8 }) }));
  }
}

for (const [what, bySize] of perRecord) {
  const sizesRead = [...bySize.keys()].sort((a, b) => a - b);
  if (sizesRead.length < 2) continue;
  const [small, large] = [sizesRead[0], sizesRead[sizesRead.length - 1]];
  const ratio = bySize.get(large) / bySize.get(small);
  console.log(JSON.stringify({ what, perRecordAt: large, over: small, ratio: +ratio.toFixed(2) }));
}
