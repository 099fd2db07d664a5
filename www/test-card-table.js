// The test cards' table, as the core's (src/sim/test_card.rs) has it:
// the package exports no table, so the page keeps this copy, and
// tests/e2e/async-payments.test.mjs checks it against the core's, card
// for card. No imports: the test reads it in Node.

/**
 * `{ number, kind, code?, forMs?, afterMs?, pass?, reason?, own? }`, in the
 * core's order. kind: succeeds, declines (code), challenge (waits for the
 * buyer; `code` when it is declined once passed), pending (forMs, pass,
 * code when it fails), reversal (afterMs, code, reason). `own`: orderpay's
 * number, not Stripe's.
 */
export const TEST_CARDS = [
  { number: "4242424242424242", kind: "succeeds" },
  { number: "4000000000000002", kind: "declines", code: "generic_decline" },
  { number: "4000000000009995", kind: "declines", code: "insufficient_funds" },
  { number: "4000000000009987", kind: "declines", code: "lost_card" },
  { number: "4000000000009979", kind: "declines", code: "stolen_card" },
  { number: "4000000000000069", kind: "declines", code: "expired_card" },
  { number: "4000000000000127", kind: "declines", code: "incorrect_cvc" },
  { number: "4000000000000119", kind: "declines", code: "processing_error" },
  { number: "4100000000000019", kind: "declines", code: "fraudulent" },
  { number: "4000000000006975", kind: "declines", code: "card_velocity_exceeded" },
  { number: "4000002500003155", kind: "challenge" },
  { number: "4000002760003184", kind: "challenge" },
  { number: "4000000000003063", kind: "challenge" },
  { number: "4000008260003178", kind: "challenge", code: "insufficient_funds" },
  { number: "4000000000000259", kind: "reversal", afterMs: 60000, code: "fraudulent", reason: "disputed as fraudulent" },
  { number: "4000084000000014", kind: "pending", forMs: 30000, pass: true, own: true },
  { number: "4000084000000022", kind: "pending", forMs: 30000, pass: false, code: "insufficient_funds", own: true },
];

/** What a card does, in words: "declined: lost_card", "pending 30 s, then succeeds (orderpay's own)". */
export function cardText(card) {
  const own = card.own ? " (orderpay's own)" : "";
  switch (card.kind) {
    case "succeeds": return "succeeds";
    case "declines": return `declined: ${card.code}`;
    case "challenge": return card.code ? `challenge (3-D Secure), then declined ${card.code} once passed` : "challenge (3-D Secure), waits for the buyer";
    case "pending": return `pending ${card.forMs / 1000} s, then ${card.pass ? "succeeds" : `fails: ${card.code}`}${own}`;
    case "reversal": return `succeeds, then reversed after ${card.afterMs / 1000} s (${card.code}: ${card.reason})`;
    default: return String(card.kind);
  }
}

/** The card with this number (spaces allowed), or undefined. */
export function findCard(number) {
  const digits = String(number ?? "").replace(/ /g, "");
  return TEST_CARDS.find((c) => c.number === digits);
}
