//! A request from plain parts: method, path, body text or bytes, headers
//! as a flat list of names and values. The JS layer never copies a part
//! over its limit into this module; it passes its measure instead, in
//! `left`, with any argument it could not read at all.

use crate::prelude::*;

use crate::json::message::msg;

use crate::gateway::request::{RawRequest, Text};
use crate::json::read::{self, Json};

/// What the JS layer left behind, as JSON text; absent when it left
/// nothing. Sizes are UTF-16 code units, which UTF-8 never undercuts, as
/// JS numbers: they may exceed a 32-bit `usize`, and saturate to it.
#[derive(Default)]
struct Left {
    path: Option<f64>,
    body: Option<f64>,
    /// A body the server stopped reading: `Some(None)` when it declared
    /// no size, else the size its content-length declared.
    unread: Option<Option<f64>>,
    /// How many headers, and their size.
    headers: Option<(f64, f64)>,
    /// An argument that could not be read: its name and the problem.
    unreadable: Option<(String, String)>,
}

impl Left {
    /// `{path?, body?, unread?: size | true, headers?: [count, size], unreadable?: [name, problem]}`,
    /// written by the package's own JS layer; anything else is reported as
    /// a request the module did not understand.
    fn read(text: &str) -> Left {
        let not_understood = |problem: String| Left {
            unreadable: Some(("request".to_owned(), msg!("not understood: ", problem))),
            ..Left::default()
        };
        let json = match read::parse(text) {
            Ok(json) => json,
            Err(e) => return not_understood(msg!(e)),
        };
        let pair = |name: &str| -> Option<(&Json, &Json)> {
            match json.get(name)?.as_array()? {
                [a, b] => Some((a, b)),
                _ => None,
            }
        };
        Left {
            path: json.get("path").and_then(Json::as_f64),
            body: json.get("body").and_then(Json::as_f64),
            unread: json.get("unread").and_then(|u| match u.as_bool() {
                Some(true) => Some(None),
                _ => u.as_f64().map(Some),
            }),
            headers: pair("headers").and_then(|(n, b)| Some((n.as_f64()?, b.as_f64()?))),
            unreadable: pair("unreadable")
                .and_then(|(n, p)| Some((n.as_str()?.to_owned(), p.as_str()?.to_owned()))),
        }
    }
}

/// The plain parts of one request, as the exports receive them.
pub struct Parts {
    pub method: String,
    pub path: Option<String>,
    pub body: Option<String>,
    pub bytes: Option<Vec<u8>>,
    pub headers: Vec<String>,
    pub left: Option<String>,
}

impl Parts {
    pub fn into_raw(self) -> RawRequest {
        let left = self.left.as_deref().map_or_else(Left::default, Left::read);
        let path = match (left.path, self.path) {
            (Some(bytes), _) => Text::TooLarge {
                bytes: bytes as usize,
            },
            (None, Some(path)) => Text::Given(path),
            (None, None) => Text::default(),
        };
        let body = match (left.unread, left.body, self.body, self.bytes) {
            (Some(declared), _, _, _) => Some(Text::Unread {
                declared: declared.map(|bytes| bytes as usize),
            }),
            (None, Some(bytes), _, _) => Some(Text::TooLarge {
                bytes: bytes as usize,
            }),
            (None, None, Some(text), _) => Some(Text::Given(text)),
            (None, None, None, Some(bytes)) => Some(from_utf8(bytes)),
            (None, None, None, None) => None,
        };
        let mut names_and_values = self.headers.into_iter();
        let mut headers = Vec::with_capacity(names_and_values.len() / 2);
        while let (Some(name), Some(value)) = (names_and_values.next(), names_and_values.next()) {
            headers.push((name, value));
        }
        RawRequest {
            method: self.method,
            path,
            body,
            headers,
            unreadable: left.unreadable,
            headers_measured: left.headers.map(|(n, b)| (n as usize, b as usize)),
        }
    }
}

/// Bytes as text; bytes that are not UTF-8 are refused only by endpoints
/// that read a body.
fn from_utf8(bytes: Vec<u8>) -> Text {
    let len = bytes.len();
    String::from_utf8(bytes).map_or(Text::NotUtf8 { bytes: len }, Text::Given)
}
