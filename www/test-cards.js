// Test cards in the request console: a card number a payment developer
// already types into a checkout form (Stripe's where Stripe has one),
// put in the pay body as `cardNumber`, so the card decides the outcome.
// The table: test-card-table.js, the core's copied and checked by a test.
import { add, h } from "./dom.js";
import { TEST_CARDS, cardText } from "./test-card-table.js";

/** `[number, what it does]` for each card, in the core's order. */
export function testCards() {
  return TEST_CARDS.map((c) => [c.number, cardText(c)]);
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
