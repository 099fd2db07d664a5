// Reads of createFetch's answers compared, step by step, with the same
// reads of a Response made by hand from the same text: every form, second
// reads, the stream, clones (and Node's inspect, when given). Self-contained,
// with no imports and nothing from outside: fetch.test.mjs runs its source
// in a throwaway app, service-worker.test.mjs in a page.
// `ours` and `twin` are two createFetch on services made alike, so each
// request gets the same answer from both.
export async function readsCompared({ ours, twin, init, inspect }) {
  const settle = (p) => p.then((v) => ["ok", v], (e) => ["rejected", e.name]);
  const ops = {
    text: (r) => settle(r.text()),
    json: (r) => settle(r.json().then((v) => v.data.orderId)),
    arrayBuffer: (r) => settle(r.arrayBuffer().then((b) => [b.constructor.name, new TextDecoder().decode(b)])),
    blob: (r) => settle(r.blob().then(async (b) => [b.type, await b.text()])),
    bytes: (r) => (typeof r.bytes === "function" ? settle(r.bytes().then((b) => [b.constructor.name, b.length])) : "none"),
    formData: (r) => settle(r.formData()),
    body: (r) => [r.body instanceof ReadableStream, r.body === r.body, r.body.locked],
    stream: async (r) => {
      try {
        return ["ok", await new Response(r.body).text()];
      } catch (e) {
        return ["rejected", e.name];
      }
    },
    clone: async (r) => {
      try {
        const c = r.clone();
        return [c instanceof Response, c.status, [...c.headers], c.bodyUsed, await c.text(), c.bodyUsed];
      } catch (e) {
        return ["rejected", e.name];
      }
    },
    inspect: (r) => inspect(r, { colors: false, depth: 0 }),
  };
  const sequences = [
    ["text"], ["json"], ["arrayBuffer"], ["blob"], ["bytes"], ["formData"], ["stream"], ["clone"], ["inspect"],
    ["text", "text"], ["json", "json"], ["text", "json"], ["json", "arrayBuffer"], ["arrayBuffer", "blob"],
    ["text", "body"], ["text", "stream"], ["text", "clone"], ["json", "inspect"],
    ["body", "text"], ["body", "json"], ["body", "clone", "text"], ["stream", "text"], ["stream", "clone"],
    ["clone", "text", "clone"], ["clone", "clone", "json"], ["inspect", "text", "text"], ["blob", "text"],
    ["formData", "text"],
  ].filter((sequence) => inspect !== undefined || !sequence.includes("inspect"));
  const rows = [];
  for (const sequence of sequences) {
    const answer = await ours("/api/order/create", init);
    const given = await twin("/api/order/create", init);
    const reference = new Response(await given.text(), {
      status: given.status,
      statusText: given.statusText,
      headers: given.headers,
    });
    Object.defineProperty(reference, "url", { value: given.url, configurable: true });
    const seen = [];
    for (const r of [answer, reference]) {
      const steps = [r instanceof Response, Object.prototype.toString.call(r), r.status, r.ok, r.statusText, r.url,
        r.type, r.redirected, [...r.headers], r.bodyUsed];
      for (const op of sequence) steps.push(op, await ops[op](r), r.bodyUsed);
      seen.push(steps);
    }
    rows.push({ sequence: sequence.join(","), ours: seen[0], reference: seen[1] });
  }
  return rows;
}

/** What every run of readsCompared must show besides the rows' equality: an envelope read, and a second read refused. */
export function checkReads(assert, rows) {
  for (const row of rows) assert.deepEqual(row.ours, row.reference, row.sequence);
  const first = rows[0].ours;
  assert.equal(first[2], 200, "the order was created");
  assert.match(first[11][1], /"code":0/, "the text read is the envelope");
  const twice = rows.find((row) => row.sequence === "text,text").ours;
  assert.match(twice[11][1], /"code":0/);
  assert.deepEqual(twice.slice(12), [true, "text", ["rejected", "TypeError"], true], "a second read is refused");
}
