//! What a test-data run made: how many orders, how their payments went,
//! and the ids of the orders, for the test-data endpoint's answer.

use crate::prelude::*;

#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct BatchReport {
    pub count: u32,
    pub succeeded: u32,
    pub failed: u32,
    pub order_ids: Vec<String>,
}
