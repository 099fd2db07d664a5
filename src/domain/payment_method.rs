//! How a payment is paid: a card or one of two wallets, spelled exactly
//! as the spec's `paymentMethod`. Its own file, so the payments and the
//! events of their changes both read it.

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum PaymentMethod {
    #[cfg_attr(feature = "serde", serde(rename = "CARD"))]
    Card,
    #[cfg_attr(feature = "serde", serde(rename = "WALLET_A"))]
    WalletA,
    #[cfg_attr(feature = "serde", serde(rename = "WALLET_B"))]
    WalletB,
}

impl PaymentMethod {
    pub const ALL: [PaymentMethod; 3] = [
        PaymentMethod::Card,
        PaymentMethod::WalletA,
        PaymentMethod::WalletB,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            PaymentMethod::Card => "CARD",
            PaymentMethod::WalletA => "WALLET_A",
            PaymentMethod::WalletB => "WALLET_B",
        }
    }

    /// Exact spelling only: `card` is a client bug worth a 400, not a guess.
    pub fn parse(text: &str) -> Option<PaymentMethod> {
        PaymentMethod::ALL.into_iter().find(|m| m.as_str() == text)
    }
}
