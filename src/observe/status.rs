//! The outcome word of log records and spans: `success`, `server_error`
//! or `client_error`.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LogStatus {
    Success,
    ServerError,
    ClientError,
}
