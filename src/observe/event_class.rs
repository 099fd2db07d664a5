//! Which service a request reached: the `event_class` of the log records.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EventClass {
    Order,
    Payment,
    Test,
}

impl EventClass {
    /// The name the log records use.
    pub fn as_str(self) -> &'static str {
        match self {
            EventClass::Order => "order",
            EventClass::Payment => "payment",
            EventClass::Test => "test",
        }
    }
}
