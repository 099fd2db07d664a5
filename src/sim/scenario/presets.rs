//! The presets' names: documents for the common stories. Their documents
//! are the files beside this one, shipped as `orderpay/scenarios/NAME.json`
//! and held by the package's `src/js/presets.js`, which turns a name into
//! its document's text before the module sees it (in `setScenario`, the
//! options and the `X-Orderpay-Scenario` header): the module carries no
//! copy of them. It knows the names only to list them when a text that
//! is neither a document nor a preset's name is refused.

/// Each preset's name, in the order the package lists them.
pub const NAMES: [&str; 6] = [
    "third-party-down",
    "flaky-network",
    "slow-payments",
    "insufficient-funds",
    "rate-limited",
    "third-payment-fails",
];
