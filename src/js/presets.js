// The presets: scenario documents for the common stories, by name. The
// core reads the same documents (src/sim/scenario/presets/*.json, shipped
// as orderpay/scenarios/NAME.json); tests/node/scenarios.test.mjs holds
// the three to each other. Pass a name or a document to setScenario().

/** Each preset's document, by its name. */
export const presets = Object.freeze({
  "third-party-down": {"name":"third-party-down","rules":[{"name":"third party down for 60 s","when":{"route":"/api/payment/pay","forMs":60000},"then":{"kind":"processor_error","status":503}}]},
  "flaky-network": {"name":"flaky-network","rules":[{"name":"10% of requests lost","when":{"probability":0.1},"then":{"kind":"network","fault":"error"}}]},
  "slow-payments": {"name":"slow-payments","rules":[{"name":"payments take 3 s more","when":{"route":"/api/payment/pay"},"then":{"kind":"delay","ms":3000}}]},
  "insufficient-funds": {"name":"insufficient-funds","rules":[{"name":"every payment declined","when":{"route":"/api/payment/pay"},"then":{"kind":"decline","code":"insufficient_funds"}}]},
  "rate-limited": {"name":"rate-limited","rules":[{"name":"every 2nd request limited","when":{"every":2},"then":{"kind":"http","status":429,"retryAfter":1}}]},
  "third-payment-fails": {"name":"third-payment-fails","rules":[{"name":"the 3rd payment declined","when":{"route":"/api/payment/pay","nth":3},"then":{"kind":"decline","code":"generic_decline"}}]},
});
