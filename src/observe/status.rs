//! The outcome word of log records and spans: `success`, `server_error`
//! or `client_error`.

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum LogStatus {
    Success,
    ServerError,
    ClientError,
}
