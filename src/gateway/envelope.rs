//! The response envelope of the spec's part 2, and the HTTP response
//! around it for callers that want the status and headers too.

use serde::{Deserialize, Serialize};

use super::error::ApiError;
use crate::domain::BatchReport;
use crate::domain::Order;
use crate::domain::Payment;

/// `{code, msg, data}`: code 0 and msg `success` on success.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Envelope {
    pub code: i32,
    pub msg: String,
    pub data: Option<Data>,
}

/// The business payload of a successful answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Data {
    Order(Order),
    Payment(Payment),
    Batch(BatchReport),
}

impl Envelope {
    pub fn success(data: Option<Data>) -> Self {
        Envelope {
            code: 0,
            msg: "success".to_owned(),
            data,
        }
    }

    pub fn failure(error: &ApiError) -> Self {
        Envelope {
            code: error.code(),
            msg: error.msg(),
            data: None,
        }
    }
}

/// What an HTTP server would send: status, headers (lower-case names) and
/// the envelope as the body.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Response {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Envelope,
}

impl Response {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}
