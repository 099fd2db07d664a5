//! The request line of one request, written once and shared (by `Rc`) by
//! its gateway and response records and its spans, rather than copied
//! into each of them.

use crate::prelude::*;

use alloc::borrow::Cow;
use alloc::rc::Rc;

/// What a request was: the method, the path without its query, the
/// documented route it matched (its template) and the caller's user. A
/// request the service makes itself names a fixed path and shares its
/// user, so neither is copied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Call {
    pub method: Cow<'static, str>,
    pub uri: Cow<'static, str>,
    pub template: Option<&'static str>,
    pub user_id: Option<Rc<str>>,
}

/// The methods most requests use, so they need no copy of their own.
const KNOWN_METHODS: [&str; 7] = ["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"];

/// A known method in any letter case, as its upper-case word; `None`
/// for any other.
pub fn known_method(method: &str) -> Option<&'static str> {
    KNOWN_METHODS
        .into_iter()
        .find(|m| m.eq_ignore_ascii_case(method))
}

/// The method as the records keep it: a known word shared, others owned.
pub fn method_word(method: &str) -> Cow<'static, str> {
    KNOWN_METHODS
        .iter()
        .find(|m| **m == method)
        .map_or_else(|| Cow::Owned(method.to_owned()), |m| Cow::Borrowed(*m))
}

impl Call {
    pub fn shared(self) -> Rc<Call> {
        Rc::new(self)
    }

    /// The spans' name: the route template (low cardinality, as
    /// OpenTelemetry asks), or the method alone when no route matched.
    pub fn push_span_name(&self, out: &mut String) {
        out.push_str(&self.method);
        if let Some(template) = self.template {
            out.push(' ');
            out.push_str(template);
        }
    }

    pub fn span_name(&self) -> String {
        let mut out = String::new();
        self.push_span_name(&mut out);
        out
    }
}
