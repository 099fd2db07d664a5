// The ids a loaded state offers for the next call: its newest orders (with
// their prices) and payments. They are read from the snapshot's JSON, which
// is the service's own layout: the page carries on without them if that
// ever changes. Parsing a snapshot of 100,000 orders takes most of a
// second, so the save worker does it (this module runs on either thread).

export const KEEP_IDS = 50;

/** `{orders: [[id, price]], payments: [id]}`, newest first, from a snapshot's text; empty lists when it has none. */
export function recentIds(text) {
  let state = {};
  try { state = JSON.parse(text) ?? {}; } catch { /* not JSON: the service's restore says why */ }
  const orders = Object.values(state.orders?.live ?? {}).filter((o) => typeof o?.orderId === "string");
  orders.sort((a, b) => (b.createdAt ?? 0) - (a.createdAt ?? 0));
  const payments = Object.values(state.payments?.by_id ?? {}).filter((p) => typeof p?.paymentId === "string");
  payments.sort((a, b) => (b.paidAt ?? 0) - (a.paidAt ?? 0));
  return {
    orders: orders.slice(0, KEEP_IDS).map((o) => [o.orderId, o.price]),
    payments: payments.slice(0, KEEP_IDS).map((p) => p.paymentId),
  };
}
