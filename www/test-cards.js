// Test cards in the request console: a card number a payment developer
// already types into a checkout form (Stripe's where Stripe has one),
// put in the pay body as `cardNumber`, so the card decides the outcome.
// The table is the package's own where it exports one (`testCards`);
// else the numbers of the design, each checked by the service when sent.
import * as orderpay from "./pkg/orderpay.js";
import { add, h } from "./dom.js";

/** The design's table, for a package that does not export its own: number → what it does. */
const FALLBACK = [
  ["4242424242424242", "succeeds"],
  ["4000000000000002", "declined: generic_decline"],
  ["4000000000009995", "declined: insufficient_funds"],
  ["4000000000009987", "declined: lost_card"],
  ["4000000000009979", "declined: stolen_card"],
  ["4000000000000069", "declined: expired_card"],
  ["4000000000000127", "declined: incorrect_cvc"],
  ["4000000000000119", "declined: processing_error"],
  ["4100000000000019", "declined: fraudulent"],
  ["4000000000006975", "declined: card_velocity_exceeded"],
  ["4000002500003155", "challenge (3-D Secure), waits for the buyer"],
  ["4000002760003184", "challenge (3-D Secure), waits for the buyer"],
  ["4000000000003063", "challenge (3-D Secure), waits for the buyer"],
  ["4000008260003178", "challenge, then declined insufficient_funds once passed"],
  ["4000000000000259", "succeeds, then reversed after 60 s (fraudulent)"],
  ["4000084000000014", "pending 30 s, then succeeds (orderpay's own)"],
  ["4000084000000022", "pending 30 s, then fails: insufficient_funds (orderpay's own)"],
];

/** `[number, what it does]` for each card: the package's table where it has one. */
export function testCards() {
  const table = orderpay.testCards ?? orderpay.TEST_CARDS;
  if (Array.isArray(table) && table.length) {
    return table.map((c) => [String(c.number ?? c.cardNumber ?? c[0]).replace(/\s+/g, ""), describe(c)]);
  }
  return FALLBACK;
}

/** A package's card entry in words: its description, or its outcome and code. */
function describe(card) {
  if (Array.isArray(card)) return String(card[1] ?? "");
  if (typeof card.description === "string") return card.description;
  return [card.outcome ?? card.kind ?? "", card.code ?? card.declineCode ?? ""].filter(Boolean).join(": ");
}

/** "4000 0025 0000 3155". */
export function grouped(number) {
  return number.replace(/(\d{4})(?=\d)/g, "$1 ");
}

/** Fills the console's card picker. */
export function fillCardPicker(select) {
  add(select, ...testCards().map(([number, what]) => h("option", { value: number }, `${grouped(number)} · ${what}`)));
}

/** What the chosen card does, for the line under the picker. */
export function cardOutcome(number) {
  if (!number) return "Not sent: the seeded draw (or a forced outcome, or a scenario) decides, as the spec says.";
  const what = testCards().find(([n]) => n === number)?.[1] ?? "";
  return `Sent as "cardNumber": "${grouped(number)}" in the body: ${what}. A scenario's rule still comes first.`;
}

/**
 * The body's text with `cardNumber` set (or removed, for none), when the
 * text is a JSON object; else the text as it was (a body being edited into
 * something else is left alone).
 */
export function withCard(text, number) {
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    return text;
  }
  if (!body || typeof body !== "object" || Array.isArray(body)) return text;
  if (number) body.cardNumber = grouped(number);
  else delete body.cardNumber;
  return JSON.stringify(body, null, 2);
}
