//! A positive, finite amount of money. Prices and payment amounts are only
//! ever held as `Money`, so no handler can see a price that is not > 0.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, PartialOrd, Serialize, Deserialize)]
#[serde(try_from = "f64", into = "f64")]
pub struct Money(f64);

impl Money {
    /// `None` for zero, negatives, NaN and infinities.
    pub fn positive(value: f64) -> Option<Money> {
        (value.is_finite() && value > 0.0).then_some(Money(value))
    }

    pub fn get(self) -> f64 {
        self.0
    }
}

impl TryFrom<f64> for Money {
    type Error = &'static str;
    fn try_from(value: f64) -> Result<Self, Self::Error> {
        Money::positive(value).ok_or("money must be a finite number > 0")
    }
}

impl From<Money> for f64 {
    fn from(money: Money) -> f64 {
        money.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_finite_positive_values_are_money() {
        assert_eq!(Money::positive(0.01).map(Money::get), Some(0.01));
        assert_eq!(Money::positive(1e300).map(Money::get), Some(1e300));
        for bad in [0.0, -0.0, -1.0, f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            assert_eq!(Money::positive(bad), None, "{bad}");
        }
    }

    #[test]
    fn money_cannot_be_deserialized_from_a_non_positive_number() {
        assert!(serde_json::from_str::<Money>("-5").is_err());
        assert_eq!(
            serde_json::from_str::<Money>("12.5").ok(),
            Money::positive(12.5)
        );
    }
}
