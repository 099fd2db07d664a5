// The compression of a large save, in a Worker: the UTF-8 encoding of a
// snapshot of many megabytes, its gzip and its base64 (localStorage holds
// strings only) each hold a thread for tens of milliseconds, and on the
// page's own thread that is a frozen page. The page hands the snapshot over
// in pieces of a million characters (copying it whole to a Worker is itself
// a long task), and each piece goes into the compressor as it comes, so the
// page can show how far it got.
//
//   in:  { id, piece, done (characters handed over so far), total, last }
//   out: { id, progress } (0..1) after each piece, then { id, packed } or { id, error }

const jobs = new Map();

self.addEventListener("message", ({ data }) => {
  const { id, piece, done, total, last } = data ?? {};
  let job = jobs.get(id);
  if (!job) {
    const gzip = new CompressionStream("gzip");
    job = { writer: gzip.writable.getWriter(), packed: new Response(gzip.readable).arrayBuffer(), chain: Promise.resolve(), encoder: new TextEncoder() };
    job.packed.catch(() => {}); // a failure is reported through the chain
    jobs.set(id, job);
  }
  // Pieces are written in the order they came, each once the one before is in.
  job.chain = job.chain.then(async () => {
    if (job.failed) return;
    try {
      await job.writer.write(job.encoder.encode(String(piece ?? "")));
      self.postMessage({ id, progress: total > 0 ? Math.min(1, done / total) : 1 });
      if (!last) return;
      jobs.delete(id);
      await job.writer.close();
      self.postMessage({ id, packed: base64(new Uint8Array(await job.packed)) });
    } catch (e) {
      job.failed = true;
      jobs.delete(id);
      self.postMessage({ id, error: String(e?.message ?? e) });
    }
  });
});

function base64(packed) {
  let binary = "";
  for (let i = 0; i < packed.length; i += 0x8000) binary += String.fromCharCode(...packed.subarray(i, i + 0x8000));
  return btoa(binary);
}
