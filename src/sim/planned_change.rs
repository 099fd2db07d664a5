//! What a pay's service record says its payment will do later (its
//! `outcome.async`): the kind, when it is due, and how it ends.

use crate::prelude::*;
use crate::sim::scenario::Outcome;

/// The plan of a payment that changes later, as its pay's record tells it.
#[derive(Debug, Clone, PartialEq)]
pub struct PlannedChange {
    /// `challenge`, `pending` or `reversal`.
    pub kind: &'static str,
    /// When it is due; `None` while a challenge waits for the buyer.
    pub due: Option<i64>,
    /// How it ends, when the plan says (a challenge's or pending's).
    pub outcome: Option<Outcome>,
    /// The decline code it fails with, when it may fail.
    pub code: Option<&'static str>,
}

/// The kinds, as a scenario names them.
pub const KINDS: [&str; 3] = ["challenge", "pending", "reversal"];

impl PlannedChange {
    /// The kind named `text`, as a static name.
    pub fn kind_of(text: &str) -> Option<&'static str> {
        KINDS.into_iter().find(|k| *k == text)
    }
}

/// `outcome.async` as the typed logs read it.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct PlannedNote {
    pub kind: String,
    /// When it is due; `None` while a challenge waits for the buyer.
    pub due_at: Option<i64>,
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub outcome: Option<String>,
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub code: Option<String>,
}
