// The presets: scenario documents for the common stories, by name. They
// are the documents of src/sim/scenario/presets/*.json (shipped as
// orderpay/scenarios/NAME.json); tests/node/scenarios.test.mjs holds the
// two to each other. Pass a name or a document to setScenario(). A name
// becomes its document's text here, before the module sees it: the
// module carries no copy of them, only their names for its refusals (its
// size budget), so this copy is the one the package runs on.

/** Each preset's document, by its name. */
export const presets = Object.freeze({
  "third-party-down": {"name":"third-party-down","rules":[{"name":"third party down for 60 s","when":{"route":"/api/payment/pay","forMs":60000},"then":{"kind":"processor_error","status":503}}]},
  "flaky-network": {"name":"flaky-network","rules":[{"name":"10% of requests lost","when":{"probability":0.1},"then":{"kind":"network","fault":"error"}}]},
  "slow-payments": {"name":"slow-payments","rules":[{"name":"payments take 3 s more","when":{"route":"/api/payment/pay"},"then":{"kind":"delay","ms":3000}}]},
  "insufficient-funds": {"name":"insufficient-funds","rules":[{"name":"every payment declined","when":{"route":"/api/payment/pay"},"then":{"kind":"decline","code":"insufficient_funds"}}]},
  "rate-limited": {"name":"rate-limited","rules":[{"name":"every 2nd request limited","when":{"every":2},"then":{"kind":"http","status":429,"retryAfter":1}}]},
  "third-payment-fails": {"name":"third-payment-fails","rules":[{"name":"the 3rd payment declined","when":{"route":"/api/payment/pay","nth":3},"then":{"kind":"decline","code":"generic_decline"}}]},
});

/**
 * The JSON text of the preset named `text`, or `text` as it is (a
 * document's text, or a name the module refuses listing the presets).
 */
export function presetText(text) {
  return Object.hasOwn(presets, text) ? JSON.stringify(presets[text]) : text;
}
