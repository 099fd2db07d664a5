// Two pictures in SVG: how payment attempts came out (by the status each
// has now: a challenged or pending payment that ended FAILED is no
// success; and the running share of approvals at the pay, which settles
// near 1 - failure rate), and how long requests
// took (the simulated durations). Drawn from the counters the service keeps
// over every request (`service.counters()`, read in counters.js), not from
// the part of the log still held, so they agree with the totals however
// small the log; where the log dropped records, the captions say so.
import { $, add, fill, h, number, percent, s, throttled } from "./dom.js";
import { binned, finalStatuses, payTurnedAway, quantile, quantileText, runningShare, timedRequests } from "./counters.js";

const BINS = [5, 10, 25, 50, 100, 150, 200, 300, 500, 1000, Infinity];
const EDGE_LABELS = ["0", "5", "10", "25", "50", "100", "150", "200", "300", "500", "1k", ""];
const binName = (i) => (i === BINS.length - 1 ? `${EDGE_LABELS[i]} ms and more` : `${EDGE_LABELS[i]}–${EDGE_LABELS[i + 1]} ms`);

export function mountCharts(store) {
  const payments = $("#chart-payments");
  const durations = $("#chart-durations");

  // The figures' widths as last laid out: read where the layout is fresh
  // (a ResizeObserver's callback), never in render, where reading it would
  // force a layout of the whole page (20 to 60 ms beside a long log).
  const widths = { payments: 0, durations: 0 };
  // What each chart was last drawn from: a chart whose inputs did not change is left as it is.
  const drawn = { payments: "", durations: "" };

  function render() {
    // One copy of the service's counters per drawing.
    const counters = store.counters;
    const p = counters.payments;
    const payKey = [widths.payments, p.attempts, p.approved, p.declined, payTurnedAway(counters), store.settings.failureRate,
      store.droppedLogs, store.records.length, counters.complete, JSON.stringify(p.byRule), JSON.stringify(p.changes ?? null)].join(" ");
    if (payKey !== drawn.payments) {
      drawn.payments = payKey;
      drawPayments(payments, store, counters, widths.payments);
    }
    const d = counters.durations;
    const durKey = [widths.durations, d.order.count, d.payment.count, d.order.maxMs, d.payment.maxMs].join(" ");
    if (durKey !== drawn.durations) {
      drawn.durations = durKey;
      drawDurations(durations, counters, widths.durations);
    }
  }
  const later = throttled(render);
  store.addEventListener("change", later);
  const resized = new ResizeObserver(() => {
    const now = { payments: payments.clientWidth, durations: durations.clientWidth };
    if (now.payments !== widths.payments || now.durations !== widths.durations) {
      Object.assign(widths, now);
      later();
    }
  });
  resized.observe(payments);
  resized.observe(durations);
  Object.assign(widths, { payments: payments.clientWidth, durations: durations.clientWidth });
  render();
}

function drawPayments(figure, store, c, clientWidth) {
  const n = c.payments.attempts;
  // By the status each payment has now: a challenge or a pending payment that ended FAILED, or a reversal, is no success.
  const final = finalStatuses(c);
  const { succeeded, open } = final;
  // A scenario's 5xx or timeout fails a payment at the third party: counted among the declined, told apart here.
  const thirdPartyErrors = Math.min(c.payments.declined, (c.faults?.byKind?.processor_error ?? 0) + (c.faults?.byKind?.timeout ?? 0));
  const declined = c.payments.declined - thirdPartyErrors;
  const other = payTurnedAway(c);
  const share = n ? succeeded / n : 0;
  const rate = store.settings.failureRate;
  const expected = typeof rate === "number" ? 1 - rate : null;
  Object.assign(figure.dataset, { attempts: n, succeeded, declined: c.payments.declined, failed: final.failed, open, challenged: final.challenged, pending: final.pending, thirdPartyErrors, share: share.toFixed(4), dropped: store.droppedLogs, complete: c.complete });
  const caption = paymentsCaption(c, { n, succeeded, declined, thirdPartyErrors, other, share, rate, expected, final });
  const width = Math.max(280, clientWidth || 600);
  const height = 230;
  const pad = { left: 44, right: 12, top: 46, bottom: 28 };
  const svg = s("svg", { width, height, viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": n ? `Share of successful payments: ${percent(share)} of ${n} attempts` : "No payment attempts yet" });
  const plotW = width - pad.left - pad.right;
  // The stacked bar: successes, those still waiting, and the failures.
  const barW = plotW * share;
  const openW = n ? plotW * (open / n) : 0;
  const failedShare = n ? final.failed / n : 0;
  add(svg,
    s("rect", { x: pad.left, y: 8, width: plotW, height: 22, class: n ? "declined" : "empty-bar", rx: 3 }),
    n ? s("rect", { x: pad.left, y: 8, width: barW, height: 22, class: "succeeded", rx: 3 }) : null,
    open ? s("rect", { x: pad.left + barW, y: 8, width: openW, height: 22, class: "open", rx: 3 },
      s("title", null, `${open} still waiting (REQUIRES_ACTION or PENDING)`)) : null,
    // The third party's own errors: the bar's right end, hatched apart from the declines.
    n && thirdPartyErrors ? s("rect", { x: pad.left + plotW * (1 - thirdPartyErrors / n), y: 8, width: plotW * (thirdPartyErrors / n), height: 22, class: "third-party-error", rx: 3 },
      s("title", null, `${thirdPartyErrors} failed by the third party's error (not a decline)`)) : null,
    n && barW >= 120 ? s("text", { x: pad.left + 6, y: 23, class: "on-bar" }, `${percent(share)} succeeded`) : null,
    openW >= 110 ? s("text", { x: pad.left + barW + 6, y: 23, class: "on-bar" }, `${percent(open / n)} waiting`) : null,
    n && plotW * failedShare >= 110 ? s("text", { x: width - pad.right - 6, y: 23, class: "on-bar", "text-anchor": "end" }, `${percent(failedShare)} ${thirdPartyErrors || final.failedLater ? "failed" : "declined"}`) : null,
  );
  // The running share of successes, attempt after attempt.
  const top = pad.top;
  const plotH = height - pad.top - pad.bottom;
  const y = (v) => top + plotH * (1 - v);
  for (const v of [0, 0.5, 1]) {
    if (expected !== null && Math.abs(y(v) - y(expected)) < 12) continue;
    add(svg,
      s("line", { x1: pad.left, x2: width - pad.right, y1: y(v), y2: y(v), class: "grid" }),
      s("text", { x: pad.left - 6, y: y(v) + 4, "text-anchor": "end", class: "axis" }, `${v * 100}%`),
    );
  }
  if (expected !== null) {
    add(svg,
      s("line", { x1: pad.left, x2: width - pad.right, y1: y(expected), y2: y(expected), class: "expected" }),
      // In the left margin, beside the axis labels, where the running line never goes.
      s("text", { x: pad.left - 6, y: y(expected) + 4, "text-anchor": "end", class: "axis expected-label" }, `${Math.round(expected * 100)}%`),
    );
  }
  if (n) add(svg, ...runningLine(c, { n, share, later: changedLater(final), x0: pad.left, plotW, y, width, height, right: pad.right }));
  fill(figure, svg, caption, droppedNote(c, store));
}

/** Whether some payment was challenged or went pending: the pay's approval is then no final success. */
const changedLater = (final) => final.challenged + final.pending > 0;

/**
 * The running line, attempt after attempt, named for what it plots: the
 * share of successes, or, once a payment was challenged or went pending,
 * the share approved at the pay (the counters keep no final status per
 * attempt), with a dot at the last attempt for the share that succeeded
 * (the bar's).
 */
function runningLine(c, { n, share, later, x0, plotW, y, width, height, right }) {
  // The service keeps the share at most 256 times, evenly spaced, and at the last attempt.
  const x = (attempt) => x0 + (n === 1 ? plotW : (plotW * (attempt - 1)) / (n - 1));
  const points = runningShare(c).map(([attempt, v]) => `${x(attempt).toFixed(1)},${y(v).toFixed(1)}`);
  const what = later ? "running share approved at the pay" : "running share of successes";
  return [
    s("polyline", { points: points.join(" "), class: "running" }, s("title", null, what)),
    later ? s("circle", { cx: x(n), cy: y(share), r: 4, class: "now-succeeded" }, s("title", null, `succeeded now: ${percent(share)} (the bar)`)) : null,
    s("text", { x: x0, y: height - 8, class: "axis" }, "attempt 1"),
    s("text", { x: width - right, y: height - 8, class: "axis running-label", "text-anchor": "end" }, plotW > 400 ? `attempt ${number(n)}: ${what}` : `attempt ${number(n)}`),
  ];
}

function drawDurations(figure, c, clientWidth) {
  const classes = ["order", "payment"];
  const counts = binned(c, BINS);
  const total = timedRequests(c);
  const q = (p) => quantileText(quantile(c, p));
  figure.dataset.requests = String(total);
  const caption = h("figcaption", null,
    h("strong", null, "Durations"), " ",
    total
      ? `of ${number(total)} order and payment requests (simulated ms): median ${q(0.5)}, 95th percentile ${q(0.95)}, longest ${q(1)}. Orders take a few ms; payments wait 60–240 ms for the third party, with a slow tail.`
      : "of requests: none yet.",
    " Test-data requests are left out: each one lasts as long as all the orders it made.",
  );
  const width = Math.max(280, clientWidth || 600);
  const height = 220;
  const pad = { left: 44, right: 8, top: 26, bottom: 40 };
  const plotW = width - pad.left - pad.right;
  const plotH = height - pad.top - pad.bottom;
  const max = Math.max(1, ...counts.map((c) => c.order + c.payment));
  const svg = s("svg", { width, height, viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": `Histogram of request durations, ${total} requests` });
  const slot = plotW / BINS.length;
  const yOf = (v) => pad.top + plotH * (1 - v / max);
  add(svg,
    s("line", { x1: pad.left, x2: width - pad.right, y1: yOf(0), y2: yOf(0), class: "grid" }),
    s("line", { x1: pad.left, x2: width - pad.right, y1: yOf(max), y2: yOf(max), class: "grid" }),
    s("text", { x: pad.left - 6, y: yOf(max) + 4, "text-anchor": "end", class: "axis" }, number(max)),
    s("text", { x: pad.left - 6, y: yOf(0) + 4, "text-anchor": "end", class: "axis" }, "0"),
    s("rect", { x: pad.left, y: 4, width: 10, height: 10, class: "order" }),
    s("text", { x: pad.left + 14, y: 13, class: "axis" }, "order"),
    s("rect", { x: pad.left + 64, y: 4, width: 10, height: 10, class: "payment" }),
    s("text", { x: pad.left + 78, y: 13, class: "axis" }, "payment"),
  );
  const narrow = slot < 30;
  counts.forEach((c, i) => {
    const x = pad.left + i * slot + 2;
    const w = Math.max(1, slot - 4);
    let base = 0;
    for (const cls of classes) {
      if (!c[cls]) continue;
      const y0 = yOf(base), y1 = yOf(base + c[cls]);
      add(svg, s("rect", { x, y: y1, width: w, height: Math.max(1, y0 - y1), class: cls },
        s("title", null, `${binName(i)}: ${c[cls]} ${cls} requests`)));
      base += c[cls];
    }
    if (!narrow || i % 2 === 0) {
      const edge = pad.left + i * slot;
      add(svg,
        s("line", { x1: edge, x2: edge, y1: yOf(0), y2: yOf(0) + 4, class: "grid" }),
        s("text", { x: edge, y: height - pad.bottom + 16, "text-anchor": "middle", class: "axis" }, EDGE_LABELS[i]),
      );
    }
  });
  add(svg, s("text", { x: pad.left + plotW / 2, y: height - 6, "text-anchor": "middle", class: "axis" }, "simulated duration, ms"));
  fill(figure, svg, caption);
}

/** The payment chart's caption: the attempts by the status they have now, how the failures came, and the challenged and pending ones. */
function paymentsCaption(c, { n, succeeded, declined, thirdPartyErrors, other, share, rate, expected, final }) {
  const later = changedLater(final);
  return h("figcaption", null,
    h("strong", null, "Payment attempts"), " ",
    n ? `since the service started: ${number(n)}, of which ${number(succeeded)} succeeded (${percent(share)})${final.open ? `, ${number(final.open)} still ${final.open === 1 ? "waits" : "wait"} (REQUIRES_ACTION or PENDING)` : ""} and ${failuresText({ n, declined, thirdPartyErrors, final })}.`
      : "none yet. Run the flow or generate test data.",
    later ? ` ${number(final.challenged)} ${final.challenged === 1 ? "was" : "were"} challenged (3-D Secure) and ${number(final.pending)} went PENDING first; each counts by the status it has now.` : "",
    n ? ` The line is the share ${later ? "the third party approved at the pay (a challenged or pending payment counts there, whatever its end; the dot at its end is the share that succeeded, the bar's)" : "of successes so far"}, attempt after attempt.` : "",
    expected !== null ? ` Expected with failure rate ${rate}: ${Math.round(expected * 100)}/${Math.round((1 - expected) * 100)} (the dashed line).` : "",
    rulesText(c.payments.byRule),
    other ? ` ${number(other)} other calls were rejected before reaching the third party and are not counted.` : "",
  );
}

/** The failed attempts: declined by the third party, failed by its own error, or FAILED later (a challenge, a pending payment, a reversal). */
function failuresText({ n, declined, thirdPartyErrors, final }) {
  const failed = final.failed;
  if (!thirdPartyErrors && !final.failedLater) return `${number(declined)} were declined by the simulated third party (${percent(n ? failed / n : 0)})`;
  const parts = [`${number(declined)} declined by the simulated third party`];
  if (thirdPartyErrors) parts.push(`${number(thirdPartyErrors)} failed by its own error (a 5xx or a timeout a scenario gave, not a decline)`);
  if (final.failedLater) parts.push(`${number(final.failedLater)} FAILED later (a challenge failed or abandoned, a pending payment declined${final.reversed ? `, ${number(final.reversed)} reversed after succeeding` : ""})`);
  return `${number(failed)} failed (${percent(n ? failed / n : 0)}): ${parts.join(", ")}`;
}

/** How the attempts were decided, when anything but the draw decided some. */
function rulesText(rules) {
  const names = { draw: "the draw", header: "X-Sim-Outcome", "forced-next": "forceNext", scenario: "a scenario's rules" };
  const entries = Object.entries(rules).filter(([, { approved, declined }]) => approved + declined > 0);
  if (!entries.some(([rule]) => rule !== "draw")) return "";
  return ` Decided by: ${entries.map(([rule, { approved, declined }]) => `${names[rule] ?? rule} ${number(approved)} approved, ${number(declined)} declined`).join("; ")}.`;
}

/** Where the counts and the log part ways: the log dropped records, or the counts were rebuilt from an older state's log. */
function droppedNote(c, store) {
  const dropped = store.droppedLogs;
  const parts = [];
  if (dropped) parts.push(`The log has dropped ${number(dropped)} records to stay within its capacity and holds only its newest ${number(store.records.length)}; these charts count every request all the same, from the counters the service keeps.`);
  if (!c.complete) parts.push("The state was saved before the service kept counters, and its log had already dropped records: the counts start at the oldest record it held.");
  if (!parts.length) return null;
  return h("p", { class: "note chart-dropped", dataset: { dropped: String(dropped), complete: String(c.complete) } }, parts.join(" "));
}
