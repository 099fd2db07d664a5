// Reads the counters the service keeps (`service.counters()`): plain data
// over every request since the service started, kept in its snapshot and
// never bounded by the log, so the charts agree with the totals however
// small the log. The page counts nothing itself; these helpers only fold
// the service's fixed buckets and running points into what a chart draws.

/** Payment pay calls that never reached the third party (a bad body, an unknown order). */
export function payTurnedAway(c) {
  let calls = 0;
  for (const row of c.byRoute) if (row.route === "/api/payment/pay") calls += row.count;
  return calls - c.payments.attempts;
}

/**
 * The payment attempts by the status they have now, from the service's
 * counts: an attempt the third party took counts as approved when it is
 * answered, though it may start REQUIRES_ACTION or PENDING and end
 * FAILED, and a SUCCESS may be reversed later (`payments.changes`, absent
 * until a pay is challenged or goes pending). `succeeded`: SUCCESS (or
 * refunded since); `failed`: declined at once, or FAILED later
 * (`failedLater`, reversals among them); `open`: still REQUIRES_ACTION or
 * PENDING; `challenged` and `pending`: the pays that started so.
 */
export function finalStatuses(c) {
  const { approved, declined } = c.payments;
  const ch = c.payments.changes ?? {};
  const [challenged, pending, toSuccess, toFailed, reversed] = ["requiresAction", "pending", "succeeded", "failed", "reversed"].map((k) => ch[k] ?? 0);
  const open = challenged + pending - toSuccess - (toFailed - reversed);
  return { succeeded: approved - challenged - pending + toSuccess - reversed, failed: declined + toFailed, failedLater: toFailed, reversed, open, challenged, pending };
}

/**
 * The running share of approvals as [attempt, share] points: one every
 * `running.every` attempts (at most 256 of them), and the last attempt.
 */
export function runningShare(c) {
  const { attempts, approved } = c.payments;
  const { every, approved: points } = c.payments.running;
  const out = points.map((n, i) => [(i + 1) * every, n / ((i + 1) * every)]);
  if (attempts && out.at(-1)?.[0] !== attempts) out.push([attempts, approved / attempts]);
  return out;
}

/**
 * The order and payment durations folded into coarser bins (`edges`, each
 * one of the service's own edges): per bin, {order, payment} counts.
 */
export function binned(c, edges) {
  const bins = edges.map(() => ({ order: 0, payment: 0 }));
  const own = c.durations.edgesMs;
  for (const cls of ["order", "payment"]) {
    c.durations[cls].buckets.forEach((n, i) => {
      if (!n) return;
      const low = i === 0 ? 0 : own[i - 1];
      const at = edges.findIndex((edge) => low < edge);
      bins[at === -1 ? bins.length - 1 : at][cls] += n;
    });
  }
  return bins;
}

/** Order and payment requests counted in the histogram. */
export function timedRequests(c) {
  return c.durations.order.count + c.durations.payment.count;
}

/**
 * The duration quantile `p` (0 to 1) over orders and payments, as the
 * upper edge of its bucket ("under 10 ms"), or the longest duration for
 * p = 1; null with nothing counted.
 */
export function quantile(c, p) {
  const total = timedRequests(c);
  if (!total) return null;
  if (p >= 1) return { exact: Math.max(c.durations.order.maxMs, c.durations.payment.maxMs) };
  const target = Math.min(total - 1, Math.floor(p * total));
  const own = c.durations.edgesMs;
  let seen = 0;
  for (let i = 0; i <= own.length; i++) {
    seen += c.durations.order.buckets[i] + c.durations.payment.buckets[i];
    if (seen > target) return i < own.length ? { under: own[i] } : { atLeast: own.at(-1) };
  }
  return null;
}

/** A quantile in words: "under 10 ms", "312 ms", "10,000 ms or more". */
export function quantileText(q) {
  if (!q) return "none";
  if ("exact" in q) return `${q.exact} ms`;
  if ("under" in q) return `under ${q.under} ms`;
  return `${q.atLeast} ms or more`;
}
