//! The edge: a raw request as a caller hands it in, and the parsing that
//! turns its text into checked values. Handlers never see raw text.

use crate::prelude::*;

use super::error::ApiError;
use crate::json::message::{msg, Q};

/// Bodies over this size are refused with 413 before any parsing.
pub const MAX_BODY_BYTES: usize = 1024 * 1024;
/// Paths (with query) over this size are refused with 414.
pub const MAX_PATH_BYTES: usize = 8 * 1024;
/// All header names and values together, over this size: 431.
pub const MAX_HEADER_BYTES: usize = 64 * 1024;
/// More headers than this: 431 too, however short each one is.
pub const MAX_HEADER_COUNT: usize = 1000;

/// A request as it arrives, before anything is checked.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RawRequest {
    pub method: String,
    pub path: Text,
    pub body: Option<Text>,
    pub headers: Vec<(String, String)>,
    /// A part the caller could not even turn into text (a body that has
    /// no JSON form, a header value that is an object): the field and the
    /// problem. The gateway answers it with a 400 like any other.
    pub unreadable: Option<(String, String)>,
    /// Headers a binding measured but did not bring in, being over a
    /// limit: how many there were, and their size in bytes (`headers` is
    /// then empty).
    pub headers_measured: Option<(usize, usize)>,
}

/// Text from outside, or just its size when it was too large to bring in
/// at all (a binding can measure a string without copying it).
#[derive(Debug, Clone, PartialEq)]
pub enum Text {
    Given(String),
    TooLarge {
        bytes: usize,
    },
    /// Bytes that are not UTF-8: refused only where the text is read.
    NotUtf8 {
        bytes: usize,
    },
    /// A body a server stopped reading once it was over the limit: the
    /// size its content-length declared, or None when it declared none
    /// (then only "over the limit" is known), so that the answer and the
    /// log name what the server knows rather than a stand-in's size.
    Unread {
        declared: Option<usize>,
    },
}

impl Default for Text {
    fn default() -> Self {
        Text::Given(String::new())
    }
}

impl From<&str> for Text {
    fn from(s: &str) -> Self {
        Text::Given(s.to_owned())
    }
}

impl From<String> for Text {
    fn from(s: String) -> Self {
        Text::Given(s)
    }
}

impl RawRequest {
    /// A request with no body and no headers; handy for callers and tests.
    pub fn new(method: &str, path: &str) -> Self {
        RawRequest {
            method: method.to_owned(),
            path: path.into(),
            ..RawRequest::default()
        }
    }

    pub fn with_body(mut self, body: &str) -> Self {
        self.body = Some(body.into());
        self
    }

    pub fn with_header(mut self, name: &str, value: &str) -> Self {
        self.headers.push((name.to_owned(), value.to_owned()));
        self
    }
}

/// Header names matched without regard to case; the first of a name wins.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Headers(Vec<(String, String)>);

impl Headers {
    pub fn parse(raw: Vec<(String, String)>) -> Result<Headers, ApiError> {
        Headers::parse_measured(raw, None)
    }

    /// Checks count and size; `measured` is what a binding found when it
    /// left headers over a limit behind.
    pub fn parse_measured(
        raw: Vec<(String, String)>,
        measured: Option<(usize, usize)>,
    ) -> Result<Headers, ApiError> {
        let (count, bytes) = measured
            .unwrap_or_else(|| (raw.len(), raw.iter().map(|(n, v)| n.len() + v.len()).sum()));
        if count > MAX_HEADER_COUNT {
            return Err(ApiError::TooManyHeaders {
                count,
                limit: MAX_HEADER_COUNT,
            });
        }
        if bytes > MAX_HEADER_BYTES {
            return Err(ApiError::HeadersTooLarge {
                bytes,
                limit: MAX_HEADER_BYTES,
            });
        }
        Ok(Headers(raw))
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(n, _)| n.trim().eq_ignore_ascii_case(name))
            .map(|(_, v)| v.trim())
    }
}

/// The request target split into its path and query parameters.
#[derive(Debug, Clone, PartialEq)]
pub struct Target {
    pub path: String,
    pub query: Vec<(String, String)>,
}

impl Target {
    pub fn parse(text: &Text) -> Result<Target, ApiError> {
        Target::take(text.clone()).map_err(|(error, _)| error)
    }

    /// `parse` for text the caller gives up: the path keeps its text,
    /// cut at the query, so a request without a query copies nothing. A
    /// refused text comes back with the error, untouched.
    pub fn take(text: Text) -> Result<Target, (ApiError, Text)> {
        let mut text = match text {
            Text::TooLarge { bytes } => {
                let error = ApiError::UriTooLong {
                    bytes,
                    limit: MAX_PATH_BYTES,
                };
                return Err((error, text));
            }
            Text::Given(t) if t.len() > MAX_PATH_BYTES => {
                let error = ApiError::UriTooLong {
                    bytes: t.len(),
                    limit: MAX_PATH_BYTES,
                };
                return Err((error, Text::Given(t)));
            }
            Text::NotUtf8 { .. } => {
                return Err((ApiError::bad("path", "not valid UTF-8 text"), text));
            }
            // No binding leaves a path unread; refused like one too long.
            Text::Unread { declared } => {
                let error = ApiError::UriTooLong {
                    bytes: declared.unwrap_or(MAX_PATH_BYTES + 1),
                    limit: MAX_PATH_BYTES,
                };
                return Err((error, text));
            }
            Text::Given(t) => t,
        };
        // One scan: the path ends at the first `?` or `#`; a query runs
        // from that `?` to the fragment's `#`.
        let (path, query) = match path_end(text.as_bytes()) {
            None => (text.as_str(), ""),
            Some(end) if text.as_bytes().get(end) == Some(&b'#') => {
                (text.get(..end).unwrap_or_default(), "")
            }
            Some(end) => {
                let rest = text.get(end + 1..).unwrap_or_default();
                let query_end = rest.bytes().position(|b| b == b'#').unwrap_or(rest.len());
                (
                    text.get(..end).unwrap_or_default(),
                    rest.get(..query_end).unwrap_or_default(),
                )
            }
        };
        if !path.starts_with('/') {
            let problem = msg!("must start with '/', got ", Q(path));
            return Err((ApiError::bad("path", problem), Text::Given(text)));
        }
        let query = if query.is_empty() {
            Vec::new()
        } else {
            query
                .split(['&'])
                .filter(|pair| !pair.is_empty())
                .map(|pair| match pair.split_once(['=']) {
                    Some((k, v)) => (k.to_owned(), v.to_owned()),
                    None => (pair.to_owned(), String::new()),
                })
                .collect()
        };
        text.truncate(path.len());
        Ok(Target { path: text, query })
    }

    /// The first value of a query parameter.
    pub fn param(&self, name: &str) -> Option<&str> {
        self.query
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Where a request target's path ends: at its first `?` or `#`, found
/// eight bytes at a time (the scan of `json::read::string_stop`, for two
/// other bytes): a byte that matches sets its high bit in `found`, and
/// the lowest one set is exact.
fn path_end(bytes: &[u8]) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let zero_in = |v: u64| v.wrapping_sub(ONES) & !v;
    let mut at = 0;
    while let Some(&[a, b, c, d, e, f, g, h]) = bytes.get(at..at + 8) {
        let x = u64::from_le_bytes([a, b, c, d, e, f, g, h]);
        let found =
            (zero_in(x ^ (ONES * u64::from(b'?'))) | zero_in(x ^ (ONES * u64::from(b'#')))) & HIGH;
        if found != 0 {
            return Some(at + found.trailing_zeros() as usize / 8);
        }
        at += 8;
    }
    let tail = bytes.get(at..)?;
    tail.iter()
        .position(|&b| b == b'?' || b == b'#')
        .map(|i| at + i)
}

/// The body limit, for every request: a server refuses an oversized body
/// before it knows whether the endpoint would read it.
pub fn check_body_size(body: Option<&Text>) -> Result<(), ApiError> {
    let bytes = match body {
        Some(Text::Unread { declared }) => {
            return Err(ApiError::BodyUnread {
                declared: *declared,
                limit: MAX_BODY_BYTES,
            })
        }
        Some(Text::TooLarge { bytes }) => *bytes,
        Some(Text::Given(t)) => t.len(),
        Some(Text::NotUtf8 { bytes }) => *bytes,
        None => 0,
    };
    if bytes > MAX_BODY_BYTES {
        return Err(ApiError::PayloadTooLarge {
            bytes,
            limit: MAX_BODY_BYTES,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn msg<T: core::fmt::Debug>(r: Result<T, ApiError>) -> String {
        r.err().map(|e| e.msg()).unwrap_or_default()
    }

    #[test]
    fn targets_split_path_query_and_fragment() {
        let t = Target::parse(&"/api/test/order/batch?count=5&x#frag".into());
        let t = t.ok().unwrap_or(Target {
            path: String::new(),
            query: vec![],
        });
        assert_eq!(t.path, "/api/test/order/batch");
        assert_eq!(t.param("count"), Some("5"));
        assert_eq!(t.param("x"), Some(""));
        assert_eq!(t.param("y"), None);
    }

    #[test]
    fn a_path_ends_where_a_byte_by_byte_scan_finds_its_end() {
        let mut rng = crate::sim::random::Rng::new(8);
        let alphabet = [
            b'?', b'#', b'/', 0x3e, 0x40, 0x22, 0x24, 0x80, 0xbf, 0xff, 0,
        ];
        for _ in 0..20_000 {
            let bytes = rng.bytes_among(40, 10, &alphabet);
            let one_by_one = bytes.iter().position(|&b| b == b'?' || b == b'#');
            assert_eq!(path_end(&bytes), one_by_one, "{bytes:?}");
        }
    }

    #[test]
    fn a_path_must_start_with_a_slash_and_be_bounded() {
        assert_eq!(
            msg(Target::parse(&"api/order/x".into())),
            "path: must start with '/', got \"api/order/x\""
        );
        let long = format!("/{}", "a".repeat(MAX_PATH_BYTES));
        assert_eq!(
            Target::parse(&long.into()).err().map(|e| e.http_status()),
            Some(414)
        );
    }

    #[test]
    fn headers_match_names_in_any_case_and_are_bounded() {
        let h = Headers::parse(vec![("X-B3-TRACEID".into(), " abc ".into())]).unwrap_or_default();
        assert_eq!(h.get("x-b3-traceid"), Some("abc"));
        let huge = Headers::parse(vec![("x".into(), "v".repeat(MAX_HEADER_BYTES))]);
        assert_eq!(huge.err().map(|e| e.http_status()), Some(431));
    }
}
