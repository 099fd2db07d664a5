//! Simulated latency. The `duration` in the log records is time the
//! simulation says a step took, drawn from a seeded model, so it is both
//! realistic-looking and reproducible.

use crate::prelude::*;

use crate::json::message::{msg, Whole};

use super::random::Rng;

/// One step's latency: `base` plus a uniform `spread`, and now and then a
/// slow tail, as real services have.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct Profile {
    pub base_ms: u64,
    pub spread_ms: u64,
    pub tail_chance: f64,
    pub tail_ms: u64,
}

impl Profile {
    /// Always three draws, so one step's latency never shifts another's.
    pub fn draw(&self, rng: &mut Rng) -> u64 {
        let spread = rng.below(self.spread_ms.saturating_add(1));
        let tail_roll = rng.unit();
        let tail = rng.below(self.tail_ms.saturating_add(1));
        let tail = if tail_roll < self.tail_chance {
            tail
        } else {
            0
        };
        self.base_ms.saturating_add(spread).saturating_add(tail)
    }
}

/// Latency of each step: the two services, the third-party call inside
/// payment pay, and the test-data endpoint's own work.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct LatencyModel {
    pub order: Profile,
    pub payment: Profile,
    pub third_party: Profile,
    pub test: Profile,
}

impl Default for LatencyModel {
    fn default() -> Self {
        LatencyModel {
            order: Profile {
                base_ms: 2,
                spread_ms: 6,
                tail_chance: 0.02,
                tail_ms: 40,
            },
            payment: Profile {
                base_ms: 3,
                spread_ms: 7,
                tail_chance: 0.02,
                tail_ms: 40,
            },
            third_party: Profile {
                base_ms: 60,
                spread_ms: 180,
                tail_chance: 0.05,
                tail_ms: 1200,
            },
            test: Profile {
                base_ms: 1,
                spread_ms: 2,
                tail_chance: 0.0,
                tail_ms: 0,
            },
        }
    }
}

/// The most simulated time one step may be given: a minute.
pub const MAX_STEP_MS: u64 = 60_000;

impl LatencyModel {
    /// Applies a caller's overrides, given as JSON such as
    /// `{"thirdParty": {"baseMs": 500, "tailChance": 0}}`: every field is
    /// optional, and the rest keep their values. Unknown names and wrong
    /// values are refused with a message naming them.
    pub fn with_overrides(mut self, json: &str) -> Result<LatencyModel, String> {
        let value = crate::json::parse(json).map_err(|e| msg!("latency: not valid JSON: ", e))?;
        let steps = value
            .as_object()
            .ok_or("latency: expected an object such as { thirdParty: { baseMs: 500 } }")?;
        for (step, fields) in steps {
            let profile = match step.as_ref() {
                "order" => &mut self.order,
                "payment" => &mut self.payment,
                "thirdParty" => &mut self.third_party,
                "test" => &mut self.test,
                other => {
                    return Err(msg!(
                        "latency: unknown step ",
                        Whole(other),
                        "; known are order, payment, thirdParty, test"
                    ))
                }
            };
            let fields = fields
                .as_object()
                .ok_or_else(|| msg!("latency.", step, ": expected an object"))?;
            for (name, value) in fields {
                let at = msg!("latency.", step, ".", name);
                let whole = || {
                    value
                        .as_u64()
                        .filter(|ms| *ms <= MAX_STEP_MS)
                        .ok_or_else(|| {
                            msg!(
                                &at,
                                ": must be a whole number of ms from 0 to ",
                                MAX_STEP_MS
                            )
                        })
                };
                match name.as_ref() {
                    "baseMs" => profile.base_ms = whole()?,
                    "spreadMs" => profile.spread_ms = whole()?,
                    "tailMs" => profile.tail_ms = whole()?,
                    "tailChance" => {
                        profile.tail_chance = value
                            .as_f64()
                            .filter(|p| (0.0..=1.0).contains(p))
                            .ok_or_else(|| msg!(&at, ": must be a number from 0 to 1"))?
                    }
                    other => {
                        return Err(msg!(
                            "latency.",
                            step,
                            ": unknown field ",
                            Whole(other),
                            "; known are baseMs, spreadMs, tailChance, tailMs"
                        ))
                    }
                }
            }
        }
        Ok(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_stay_within_base_spread_and_tail() {
        let model = LatencyModel::default();
        let mut rng = Rng::new(4);
        let draws: Vec<u64> = (0..5000)
            .map(|_| model.third_party.draw(&mut rng))
            .collect();
        assert!(draws.iter().all(|&d| (60..=60 + 180 + 1200).contains(&d)));
        let slow = draws.iter().filter(|&&d| d > 240).count();
        // About 5% take the tail, and most tails push past the spread.
        assert!((100..=300).contains(&slow), "{slow}");
    }

    #[test]
    fn overrides_change_only_what_they_name() {
        let model = LatencyModel::default()
            .with_overrides(r#"{"thirdParty":{"baseMs":500,"tailChance":0}}"#);
        let model = model.unwrap_or_default();
        assert_eq!(model.third_party.base_ms, 500);
        assert_eq!(model.third_party.tail_chance, 0.0);
        assert_eq!(
            model.third_party.spread_ms,
            LatencyModel::default().third_party.spread_ms
        );
        assert_eq!(model.order, LatencyModel::default().order);
    }

    #[test]
    fn bad_overrides_name_the_field() {
        let err = |json: &str| {
            LatencyModel::default()
                .with_overrides(json)
                .err()
                .unwrap_or_default()
        };
        assert!(err(r#"{"thirdparty":{}}"#).starts_with("latency: unknown step \"thirdparty\""));
        assert!(err(r#"{"order":{"baseMs":-1}}"#)
            .starts_with("latency.order.baseMs: must be a whole number"));
        assert!(err(r#"{"order":{"baseMs":1.5}}"#).starts_with("latency.order.baseMs:"));
        assert!(err(r#"{"order":{"tailChance":2}}"#)
            .starts_with("latency.order.tailChance: must be a number from 0 to 1"));
        assert!(err(r#"{"order":{"base":1}}"#).starts_with("latency.order: unknown field \"base\""));
        assert!(err("[]").starts_with("latency: expected an object"));
    }

    #[test]
    fn a_profile_without_spread_or_tail_is_exact() {
        let fixed = Profile {
            base_ms: 7,
            spread_ms: 0,
            tail_chance: 0.0,
            tail_ms: 0,
        };
        let mut rng = Rng::new(1);
        assert!((0..100).all(|_| fixed.draw(&mut rng) == 7));
    }
}
