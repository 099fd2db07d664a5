//! The test cards: Stripe's test numbers (and two of orderpay's own, for
//! a pending payment), each with the outcome a pay with its `cardNumber`
//! takes. One table; the docs' table is checked against it.

/// What paying with a test card does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CardOutcome {
    /// Approved.
    Succeeds,
    /// Declined with this decline code.
    Declines(&'static str),
    /// A 3-D Secure challenge waiting for the buyer; once passed, declined
    /// with the code when there is one.
    Challenge {
        declined_after: Option<&'static str>,
    },
    /// Pending for `for_ms`, then succeeds or fails with `code`.
    Pending {
        for_ms: u64,
        pass: bool,
        code: &'static str,
    },
    /// Succeeds, then reversed after `after_ms`.
    Reversal {
        after_ms: u64,
        code: &'static str,
        reason: &'static str,
    },
}

/// One test card: its number (digits only), its outcome, and whether the
/// number is orderpay's own rather than Stripe's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TestCard {
    pub number: &'static str,
    pub outcome: CardOutcome,
    pub own: bool,
}

const fn card(number: &'static str, outcome: CardOutcome) -> TestCard {
    TestCard {
        number,
        outcome,
        own: false,
    }
}

const WAITS: CardOutcome = CardOutcome::Challenge {
    declined_after: None,
};

/// Every test card, in the order the docs list them.
pub const CARDS: [TestCard; 17] = [
    card("4242424242424242", CardOutcome::Succeeds),
    card("4000000000000002", CardOutcome::Declines("generic_decline")),
    card(
        "4000000000009995",
        CardOutcome::Declines("insufficient_funds"),
    ),
    card("4000000000009987", CardOutcome::Declines("lost_card")),
    card("4000000000009979", CardOutcome::Declines("stolen_card")),
    card("4000000000000069", CardOutcome::Declines("expired_card")),
    card("4000000000000127", CardOutcome::Declines("incorrect_cvc")),
    card(
        "4000000000000119",
        CardOutcome::Declines("processing_error"),
    ),
    card("4100000000000019", CardOutcome::Declines("fraudulent")),
    card(
        "4000000000006975",
        CardOutcome::Declines("card_velocity_exceeded"),
    ),
    card("4000002500003155", WAITS),
    card("4000002760003184", WAITS),
    card("4000000000003063", WAITS),
    card(
        "4000008260003178",
        CardOutcome::Challenge {
            declined_after: Some("insufficient_funds"),
        },
    ),
    card(
        "4000000000000259",
        CardOutcome::Reversal {
            after_ms: 60_000,
            code: "fraudulent",
            reason: "disputed as fraudulent",
        },
    ),
    TestCard {
        number: "4000084000000014",
        outcome: CardOutcome::Pending {
            for_ms: 30_000,
            pass: true,
            code: "generic_decline",
        },
        own: true,
    },
    TestCard {
        number: "4000084000000022",
        outcome: CardOutcome::Pending {
            for_ms: 30_000,
            pass: false,
            code: "insufficient_funds",
        },
        own: true,
    },
];

/// A test card by its place in `CARDS`: one byte, so a verdict that
/// names one stays the size it was.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CardIx(u8);

impl CardIx {
    /// The card with exactly this number (digits only).
    pub fn of(number: &str) -> Option<CardIx> {
        let at = CARDS.iter().position(|c| c.number == number)?;
        u8::try_from(at).ok().map(CardIx)
    }

    /// Its number, digits only.
    pub fn number(self) -> &'static str {
        CARDS.get(usize::from(self.0)).map_or("", |c| c.number)
    }
}

/// The card with this number, spaces and dashes allowed anywhere in it
/// (as people type a card number).
pub fn find(given: &str) -> Option<&'static TestCard> {
    let digits = given.bytes().filter(|b| !matches!(b, b' ' | b'-'));
    CARDS.iter().find(|c| {
        let mut wanted = c.number.bytes();
        let mut got = digits.clone();
        loop {
            match (wanted.next(), got.next()) {
                (None, None) => return true,
                (Some(a), Some(b)) if a == b => {}
                _ => return false,
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn luhn(number: &str) -> bool {
        let sum: u32 = number
            .bytes()
            .rev()
            .enumerate()
            .map(|(i, b)| {
                let d = u32::from(b - b'0');
                match i % 2 {
                    0 => d,
                    _ if d * 2 > 9 => d * 2 - 9,
                    _ => d * 2,
                }
            })
            .sum();
        sum % 10 == 0
    }

    #[test]
    fn numbers_are_sixteen_digits_distinct_and_orderpays_own_are_luhn_valid() {
        for (i, c) in CARDS.iter().enumerate() {
            assert_eq!(c.number.len(), 16, "{}", c.number);
            assert!(c.number.bytes().all(|b| b.is_ascii_digit()));
            assert!(CARDS[..i].iter().all(|o| o.number != c.number));
            assert!(!c.own || luhn(c.number), "{}", c.number);
        }
    }

    #[test]
    fn spaces_and_dashes_are_stripped_and_nothing_else_is() {
        for typed in [
            "4242 4242 4242 4242",
            "4242-4242-4242-4242",
            "4242 - 4242-4242 4242",
        ] {
            assert_eq!(find(typed).map(|c| c.outcome), Some(CardOutcome::Succeeds));
        }
        assert!(find("4242.4242.4242.4242").is_none());
        assert!(find("4242_4242_4242_4242").is_none());
        assert!(find("424242424242424").is_none());
        assert!(find("42424242424242421").is_none());
        assert!(find("").is_none());
    }
}
