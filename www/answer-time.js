// When an answer reaches its client: the service answers at once and
// only records how long the request took (its simulated duration), so
// what a client does next (the flow's next step, a browser sent to the
// challenge page) waits until then, or the records would show it before
// the answer it follows.
/**
 * Waits until the request's simulated end, when a real client would have
 * its answer. The service answers at once and only records how long the
 * request took; without this wait the next step would start inside this
 * one's simulated time, and the records and the waterfall would show
 * steps the flow sent one after another as overlapping. In the tab the
 * service reads this tab's clock, so the wait ends at the response
 * record's time. Live, the server's clock may differ from this one: the
 * wait is the whole simulated time after the answer came, unless the
 * server waited it out already (`orderpay serve --latency`).
 */
export function answerArrives(reply, elapsed, live) {
  const simulated = Number(reply.headers?.["x-sim-duration-ms"] ?? reply.record?.duration ?? 0);
  if (!(simulated > 0)) return Promise.resolve();
  const end = reply.record?.timestamp;
  const wait = !live && typeof end === "number"
    ? Math.min(simulated, end - Date.now() + 1) // a millisecond over: timers and Date.now() round apart
    : elapsed >= simulated ? 0 : simulated;
  return wait > 0 ? new Promise((resolve) => setTimeout(resolve, wait)) : Promise.resolve();
}

