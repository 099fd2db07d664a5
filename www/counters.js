// Counts the charts are drawn from, kept by the page as records arrive: the
// log holds only its newest records (the log capacity), so counting what it
// still holds undercounts a long session. Every record the page pulls with
// `logs(after)` is counted once, and the counts are saved with the state.
// Records the log dropped before the page saw them (a gap in `seq`, or a
// state restored with records already dropped) cannot be counted, and the
// charts say how many those were.

export class Counters {
  /** Payment attempts (responses of POST /api/payment/pay that reached the third party). */
  attempts = 0;
  succeeded = 0;
  declined = 0;
  /** Payment pay calls turned away before the third party (a bad body, an unknown order). */
  other = 0;
  /** Each attempt in order, "1" approved or "0" declined: the running share. */
  outcomes = "";
  /** By the rule that decided: { draw: {approved, declined}, header: …, "forced-next": … }. */
  rules = {};
  /** Simulated durations of order and payment responses: ms → count, per event class. */
  durations = { order: {}, payment: {} };
  /** Records the log dropped before the page could count them. */
  missed = 0;
  /** The last record counted. */
  lastSeq = 0;

  add(records) {
    let bits = "";
    for (const r of records) {
      if (r.seq <= this.lastSeq) continue;
      if (r.seq > this.lastSeq + 1) this.missed += r.seq - this.lastSeq - 1;
      this.lastSeq = r.seq;
      if (r.stage === "service" && r.outcome && typeof r.outcome === "object") {
        const rule = String(r.outcome.rule);
        this.rules[rule] ??= { approved: 0, declined: 0 };
        this.rules[rule][r.outcome.approved ? "approved" : "declined"]++;
      }
      if (r.stage !== "response") continue;
      if (r.uri === "/api/payment/pay") {
        if (r.code === 0) { this.attempts++; this.succeeded++; bits += "1"; }
        else if (r.status === "server_error") { this.attempts++; this.declined++; bits += "0"; }
        else this.other++;
      }
      if (typeof r.duration === "number" && (r.event_class === "order" || r.event_class === "payment")) {
        const bins = this.durations[r.event_class];
        bins[r.duration] = (bins[r.duration] ?? 0) + 1;
      }
    }
    if (bits) this.outcomes += bits;
  }

  /** Counts for a service whose log the page reads whole: what it no longer holds is missed. */
  static of(records, dropped) {
    const c = new Counters();
    // Everything before the first record held was dropped (or emptied) before the page could count it.
    if (records.length) {
      c.lastSeq = records[0].seq - 1;
      c.missed = c.lastSeq;
      c.add(records);
    } else {
      c.missed = dropped;
    }
    return c;
  }

  /** Saved counts, when they belong to this log (they end at its last record); else null. */
  static from(saved, records) {
    if (!saved || typeof saved !== "object" || saved.lastSeq !== (records.at(-1)?.seq ?? saved.lastSeq)) return null;
    return Object.assign(new Counters(), saved);
  }

  /** Duration quantile `p` (0 to 1) over both classes. */
  quantile(p) {
    const counts = new Map();
    for (const bins of Object.values(this.durations)) for (const [ms, n] of Object.entries(bins)) counts.set(Number(ms), (counts.get(Number(ms)) ?? 0) + n);
    const sorted = [...counts].sort((a, b) => a[0] - b[0]);
    const total = sorted.reduce((n, [, c]) => n + c, 0);
    const target = Math.min(total - 1, Math.floor(p * total));
    let seen = 0;
    for (const [ms, n] of sorted) { seen += n; if (seen > target) return ms; }
    return null;
  }

  get requests() {
    let n = 0;
    for (const bins of Object.values(this.durations)) for (const c of Object.values(bins)) n += c;
    return n;
  }
}
