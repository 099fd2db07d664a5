//! Every way a request can fail, and the one place that decides what each
//! failure looks like: HTTP status, envelope code and msg, and log status.

use crate::prelude::*;

use crate::json::message::{msg, Whole};

use alloc::borrow::Cow;

use crate::domain::Rejection;
use crate::observe::LogStatus;

/// Why a request did not succeed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ApiError {
    /// The service handled the request and said no.
    Rejected(Rejection),
    /// The request was malformed; `field` names what, `problem` says how.
    BadRequest {
        field: String,
        problem: String,
    },
    NotFound {
        method: String,
        path: String,
        hint: Option<String>,
    },
    MethodNotAllowed {
        method: String,
        path: String,
        allow: &'static str,
        hint: Option<String>,
    },
    PayloadTooLarge {
        bytes: usize,
        limit: usize,
    },
    /// A body a server stopped reading: its declared size, if it had one.
    BodyUnread {
        declared: Option<usize>,
        limit: usize,
    },
    UriTooLong {
        bytes: usize,
        limit: usize,
    },
    HeadersTooLarge {
        bytes: usize,
        limit: usize,
    },
    TooManyHeaders {
        count: usize,
        limit: usize,
    },
    UnsupportedMediaType {
        content_type: String,
    },
    /// The service keeps as many orders as `maxOrders` allows: 507, and
    /// nothing is evicted to make room.
    InsufficientStorage {
        limit: usize,
    },
    /// A scenario's `http` failure: 429, 502, 503 or 504, from the rule
    /// named; nothing ran.
    Unavailable {
        status: u16,
        rule: String,
    },
    /// A scenario's network fault in the request phase: no answer at all
    /// (status 0 in the records); nothing ran.
    NetworkFault {
        fault: &'static str,
        rule: String,
    },
    /// The service keeps as many idempotency keys as `idempotencyKeys`
    /// allows, none of them expired: 507, and none is dropped to make room.
    IdempotencyKeysFull {
        limit: usize,
    },
    /// Something broke inside: 500, never the caller's fault.
    Internal(String),
    /// The payment's state forbids it (a challenge open, or one already
    /// ended): 409, code -1, the message saying which.
    Conflict(String),
}

/// The status of a `Conflict`, whose envelope's code is -1 as a business
/// answer's is.
const CONFLICT: u16 = 409;

impl ApiError {
    pub fn bad(field: impl Into<String>, problem: impl Into<String>) -> Self {
        ApiError::BadRequest {
            field: field.into(),
            problem: problem.into(),
        }
    }

    pub fn http_status(&self) -> u16 {
        match self {
            ApiError::Rejected(_) => 200,
            ApiError::BadRequest { .. } => 400,
            ApiError::NotFound { .. } => 404,
            ApiError::MethodNotAllowed { .. } => 405,
            ApiError::PayloadTooLarge { .. } | ApiError::BodyUnread { .. } => 413,
            ApiError::UriTooLong { .. } => 414,
            ApiError::UnsupportedMediaType { .. } => 415,
            ApiError::HeadersTooLarge { .. } | ApiError::TooManyHeaders { .. } => 431,
            ApiError::Internal(_) => 500,
            ApiError::Unavailable { status, .. } => *status,
            ApiError::NetworkFault { .. } => 0,
            ApiError::InsufficientStorage { .. } => 507,
            ApiError::IdempotencyKeysFull { .. } => 507,
            // Its envelope's code is -1 (`code`), not this status.
            ApiError::Conflict(_) => CONFLICT,
        }
    }

    /// -1 for business errors, as the spec observes; the HTTP status for
    /// malformed requests, so the body alone tells the two apart.
    pub fn code(&self) -> i32 {
        match self {
            ApiError::Rejected(_) | ApiError::Conflict(_) => -1,
            other => i32::from(other.http_status()),
        }
    }

    /// The message when it is a fixed text (a business rejection's), so
    /// the records and spans that repeat it share it instead of copying.
    pub fn fixed_msg(&self) -> Option<&'static str> {
        match self {
            ApiError::Rejected(r) => Some(r.msg()),
            _ => None,
        }
    }

    /// The message as the records keep it: shared when fixed.
    pub fn log_msg(&self) -> Cow<'static, str> {
        match self.fixed_msg() {
            Some(fixed) => Cow::Borrowed(fixed),
            None => Cow::Owned(self.msg()),
        }
    }

    pub fn msg(&self) -> String {
        match self {
            ApiError::Rejected(r) => r.msg().to_owned(),
            ApiError::BadRequest { field, problem } => msg!(field, ": ", problem),
            ApiError::NotFound { method, path, hint } => {
                let mut msg = msg!("No route for ", method, " ", path);
                if let Some(hint) = hint {
                    msg.push_str(&msg!("; did you mean ", hint, "?"));
                }
                msg
            }
            ApiError::MethodNotAllowed {
                method,
                path,
                allow,
                hint,
            } => {
                let mut msg = msg!("method: ", method, " is not allowed on ", path, "; use ", allow);
                if let Some(hint) = hint {
                    msg.push_str(&msg!(", or did you mean ", hint, "?"));
                }
                msg
            }
            ApiError::PayloadTooLarge { bytes, limit } => {
                msg!("body: ", bytes, " bytes is over the limit of ", limit, " bytes")
            }
            ApiError::BodyUnread {
                declared: Some(bytes),
                limit,
            } => msg!(
                "body: ",
                bytes,
                " bytes (its content-length) is over the limit of ",
                limit,
                " bytes"
            ),
            ApiError::BodyUnread {
                declared: None,
                limit,
            } => msg!("body: over the limit of ", limit, " bytes; reading stopped there"),
            ApiError::UriTooLong { bytes, limit } => {
                msg!("path: ", bytes, " bytes is over the limit of ", limit, " bytes")
            }
            ApiError::HeadersTooLarge { bytes, limit } => {
                msg!("headers: ", bytes, " bytes is over the limit of ", limit, " bytes")
            }
            ApiError::TooManyHeaders { count, limit } => {
                msg!("headers: ", count, " headers is over the limit of ", limit, " headers")
            }
            ApiError::UnsupportedMediaType { content_type } => {
                msg!("Content-Type: ", Whole(content_type), " is not supported; send application/json")
            }
            ApiError::Internal(what) => msg!("internal error: ", what),
            ApiError::Conflict(what) => what.clone(),
            ApiError::Unavailable { status, rule } => unavailable(*status, rule),
            ApiError::NetworkFault { fault, rule } => msg!("network fault: ", fault, " (scenario rule ", Whole(rule), ")"),
            ApiError::InsufficientStorage { limit } => msg!("maxOrders: the service already keeps ", limit, " orders, its maxOrders; \
                 delete orders (POST /api/order/delete/{orderId}) or reset the service to make room"),
            ApiError::IdempotencyKeysFull { limit } => msg!("idempotencyKeys: the service already keeps ", limit,                 " idempotency keys, its idempotencyKeys, none of them 24 hours old; \
                 retry without Idempotency-Key, wait until keys expire, or raise idempotencyKeys"),
        }
    }

    /// The `status` of the log records: business answers are the service
    /// working as designed, except the third party's failure.
    pub fn log_status(&self) -> LogStatus {
        match self {
            ApiError::Rejected(Rejection::ThirdPartyFailed) => LogStatus::ServerError,
            ApiError::Rejected(_) => LogStatus::Success,
            ApiError::Internal(_)
            | ApiError::InsufficientStorage { .. }
            | ApiError::IdempotencyKeysFull { .. }
            | ApiError::NetworkFault { .. } => LogStatus::ServerError,
            ApiError::Unavailable { status, .. } if *status >= 500 => LogStatus::ServerError,
            _ => LogStatus::ClientError,
        }
    }
}

/// A scenario's `http` failure in words: the status's reason and the rule.
fn unavailable(status: u16, rule: &str) -> String {
    let reason = match status {
        429 => "Too Many Requests",
        502 => "Bad Gateway",
        504 => "Gateway Timeout",
        _ => "Service Unavailable",
    };
    msg!("", reason, " (scenario rule ", Whole(rule), ")")
}

impl From<Rejection> for ApiError {
    fn from(r: Rejection) -> Self {
        ApiError::Rejected(r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn business_errors_are_200_with_code_minus_one() {
        let e = ApiError::from(Rejection::PaidOrderCannotBeDeleted);
        assert_eq!((e.http_status(), e.code()), (200, -1));
        assert_eq!(e.msg(), "Paid order cannot be deleted");
        assert_eq!(e.log_status(), LogStatus::Success);
        assert_eq!(
            ApiError::from(Rejection::ThirdPartyFailed).log_status(),
            LogStatus::ServerError
        );
    }

    #[test]
    fn client_errors_carry_their_status_as_code_and_name_the_field() {
        let e = ApiError::bad("price", "expected a number, got string");
        assert_eq!((e.http_status(), e.code()), (400, 400));
        assert_eq!(e.msg(), "price: expected a number, got string");
        assert_eq!(e.log_status(), LogStatus::ClientError);
    }
}
