// Why a paid order's payment cannot be refunded: a reversal (the bank took
// the money back from a SUCCESS payment, which became FAILED) leaves the
// order PAID, and a refund answers the spec's "Only success payment can
// be refunded", which says nothing of it. The payment's change record
// (`stage: "payment"`, kind "reversal") does: the page says it beside
// the refused refund and on the order's page.
import { h } from "./dom.js";
import { serviceTime } from "./service-time.js";

const REFUND_PATH = /\/api\/payment\/refund\/(PAY-[A-Za-z0-9]+)(\?|$)/;

/** The change record that reversed payment `id`, or null. */
export function reversalOf(store, id) {
  return store.requests.changes.find((r) => r.paymentId === id && r.kind === "reversal" && r.to === "FAILED") ?? null;
}

/** "PAY-… was reversed at 12:00:30: the money is back with the buyer…": `r`, its change record. */
function reversedText(store, r) {
  const code = r.failureCode ? ` (${r.failureCode}${r.failureReason ? `: ${r.failureReason}` : ""})` : "";
  return `${r.paymentId} was reversed at ${serviceTime(store, r.timestamp)}${code}: the bank took the money back, so it is back with the buyer and there is nothing to refund.`;
}

/** Beside a refund refused with code -1 (`path`: the refund's): why, when its payment was reversed; else null. */
export function refusedRefundWhy(store, path, envelope) {
  const id = REFUND_PATH.exec(String(path ?? ""))?.[1];
  const r = envelope?.code === -1 && id ? reversalOf(store, id) : null;
  if (!r) return null;
  return h("p", { class: "reversed-why", dataset: { payment: id } }, h("strong", null, "Why: "), reversedText(store, r),
    " The payment is FAILED, and only a SUCCESS payment can be refunded.");
}

/** On an order's page (`requests`: its timeline): each of its payments that was reversed, and why the order still reads PAID. */
export function orderReversals(store, requests) {
  const reversed = requests.flatMap((req) => req.changes ?? []).filter((r) => r.kind === "reversal" && r.to === "FAILED");
  if (!reversed.length) return null;
  return h("div", { class: "reversed-why", id: "order-reversals" }, reversed.map((r) => h("p", { dataset: { payment: r.paymentId } }, h("strong", null, "Reversed: "),
    reversedText(store, r), " The order stays PAID (the spec has no state for a reversal), and a refund is refused: Only success payment can be refunded.")));
}
