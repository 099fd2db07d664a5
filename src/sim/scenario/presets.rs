//! The presets: documents for the common stories, by name. The package
//! ships the same files (`orderpay/scenarios/NAME.json`). Each is one line
//! of compact JSON, as src/js/presets.js writes them: the module holds
//! their text, and the indentation was 64 bytes of it gzipped.

/// Each preset's name and its document's text.
pub const PRESETS: [(&str, &str); 6] = [
    (
        "third-party-down",
        include_str!("presets/third-party-down.json"),
    ),
    ("flaky-network", include_str!("presets/flaky-network.json")),
    ("slow-payments", include_str!("presets/slow-payments.json")),
    (
        "insufficient-funds",
        include_str!("presets/insufficient-funds.json"),
    ),
    ("rate-limited", include_str!("presets/rate-limited.json")),
    (
        "third-payment-fails",
        include_str!("presets/third-payment-fails.json"),
    ),
];

/// The text of the preset named `name`.
pub fn preset(name: &str) -> Option<&'static str> {
    PRESETS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, text)| *text)
}
