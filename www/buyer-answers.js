// The buyer's three answers to a 3-D Secure challenge: the outcome each
// button of the challenge page posts, and the label the buyer reads on
// it, as the core's page has them (src/gateway/challenge_page.rs). The
// page names a buyer's answer by the label its button shows;
// tests/node/copies.test.mjs holds this copy to the page the package
// serves. No imports: that test reads it in Node.

/** outcome → the label of its button. */
export const BUYER = Object.freeze({ pass: "Complete", fail: "Fail", abandon: "Cancel" });
