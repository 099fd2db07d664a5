//! A request's route, by method and path, from the table of documented
//! routes (`domain::route_table`). A path that matches none gets 404 with
//! the nearest route as a hint; a known path with the wrong method gets
//! 405 and the method to use.

use crate::prelude::*;

use crate::json::message::msg;

use super::error::ApiError;
use crate::domain::route_table::{Matches, Pick, API_ROUTES};
use crate::observe::EventClass;

use crate::domain::route_table::Kind;

/// A matched route, with its path parameter (borrowed from the path)
/// where it has one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Route<'p> {
    CreateOrder,
    GetOrder(&'p str),
    MarkOrderPaid(&'p str),
    DeleteOrder(&'p str),
    Pay,
    GetPayment(&'p str),
    Refund(&'p str),
    Batch,
}

impl Route<'_> {
    pub fn event_class(&self) -> EventClass {
        match self {
            Route::CreateOrder
            | Route::GetOrder(_)
            | Route::MarkOrderPaid(_)
            | Route::DeleteOrder(_) => EventClass::Order,
            Route::Pay | Route::GetPayment(_) | Route::Refund(_) => EventClass::Payment,
            Route::Batch => EventClass::Test,
        }
    }
}

/// The path's event class when it names a documented path, whatever the
/// method.
pub fn event_class_of_path(path: &str) -> Option<EventClass> {
    event_class(&Matches::of(path))
}

/// The event class of the path these matches were found in, when it
/// names a documented path, whatever the method: a 405 on an order path
/// is still about orders.
pub fn event_class(matches: &Matches) -> Option<EventClass> {
    let route = build(matches.kind()?, "")?;
    Some(route.event_class())
}

/// Matches method (any letter case) and path (exact case, as servers do).
pub fn resolve<'p>(method: &str, path: &'p str) -> Result<Route<'p>, ApiError> {
    let method = method.to_ascii_uppercase();
    let matches = Matches::of(path);
    resolve_picked(&matches, matches.pick(&method), &method, path)
}

/// The route of an upper-case method on `path` (the path `matches` were
/// found in), from the fit already picked for `method`, or the 404 or 405
/// that says why there is none.
pub fn resolve_picked<'p>(
    matches: &Matches,
    pick: Option<Pick>,
    method: &str,
    path: &'p str,
) -> Result<Route<'p>, ApiError> {
    let fit = pick.and_then(|p| Some((p.allowed(), matches.picked(p)?)));
    let route = match fit {
        Some((true, ((_, _, kind), (from, to)))) => {
            build(kind, path.get(from..to).unwrap_or_default())
        }
        Some((false, ((allow, ..), _))) => {
            return Err(ApiError::MethodNotAllowed {
                allow,
                hint: nearest(path, method, true),
                method: method.to_owned(),
                path: path.to_owned(),
            })
        }
        None => None,
    };
    route.ok_or_else(|| ApiError::NotFound {
        hint: nearest(path, method, false),
        method: method.to_owned(),
        path: path.to_owned(),
    })
}

/// The route of one of the eight; none for a page, which is served
/// before routing (`exchange`) and never among `Matches`' fits.
fn build(kind: Kind, param: &str) -> Option<Route<'_>> {
    Some(match kind {
        Kind::CreateOrder => Route::CreateOrder,
        Kind::GetOrder => Route::GetOrder(param),
        Kind::MarkOrderPaid => Route::MarkOrderPaid(param),
        Kind::DeleteOrder => Route::DeleteOrder(param),
        Kind::Pay => Route::Pay,
        Kind::GetPayment => Route::GetPayment(param),
        Kind::Refund => Route::Refund(param),
        Kind::Batch => Route::Batch,
        Kind::ChallengePage => return None,
    })
}

/// The documented route (of the eight) closest to the path: segment by
/// segment, a path parameter fits any segment, and literals compare by
/// edit distance without regard to case. Nothing is offered when nothing is close.
/// Routes of the request's method come first; with `only_method`, no
/// other is offered: `POST /api/order/creat` is nearest to the create
/// route, not to reading an order named "creat".
fn nearest(path: &str, wanted: &str, only_method: bool) -> Option<String> {
    // The first route of the least cost, its text made for it alone.
    let mut best: Option<(usize, &str, &str)> = None;
    for (method, template, _) in API_ROUTES {
        if only_method && *method != wanted {
            continue;
        }
        let mut cost = if *method == wanted { 0 } else { 2 };
        let mut parts = template.split(['/']).filter(|s| !s.is_empty());
        let mut segments = path.split(['/']).filter(|s| !s.is_empty());
        loop {
            cost += match (parts.next(), segments.next()) {
                (Some(p), Some(_)) if p.starts_with('{') => 0,
                (Some(p), Some(s)) => edit_distance(p, s),
                (Some(p), None) if p.starts_with('{') => 1,
                (Some(p), None) => p.len().min(4),
                (None, Some(s)) => s.len().min(4),
                (None, None) => break,
            };
        }
        if best.is_none_or(|(least, ..)| cost < least) {
            best = Some((cost, method, template));
        }
    }
    best.filter(|(cost, ..)| *cost <= path.len().max(4) / 2)
        .map(|(_, method, template)| msg!(method, " ", template))
}

/// The edit distance of two texts, their ASCII letters compared without
/// regard to case, in one row of cells and no copy of either text.
fn edit_distance(a: &str, b: &str) -> usize {
    let mut row: Vec<usize> = (0..=b.chars().count()).collect();
    for (i, ca) in a.chars().enumerate() {
        let ca = ca.to_ascii_lowercase();
        // The row's cells before this character (`diagonal`, `above`)
        // and after it (`left`, the cell just written).
        let (mut diagonal, mut left) = (i, i + 1);
        for (cell, cb) in row.iter_mut().skip(1).zip(b.chars()) {
            let above = *cell;
            let change = usize::from(ca != cb.to_ascii_lowercase());
            left = (above + 1).min(left + 1).min(diagonal + change);
            *cell = left;
            diagonal = above;
        }
        if let Some(first) = row.first_mut() {
            *first = i + 1;
        }
    }
    row.last().copied().unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `nearest` as it was written first, with the texts copied in lower
    /// case and the segments collected: the definition it is checked
    /// against.
    fn nearest_by_copies(path: &str, wanted: &str, only_method: bool) -> Option<String> {
        let segments: Vec<&str> = path.split(['/']).filter(|s| !s.is_empty()).collect();
        API_ROUTES
            .iter()
            .filter(|(method, _, _)| !only_method || *method == wanted)
            .map(|(method, template, _)| {
                let parts: Vec<&str> = template.split(['/']).filter(|s| !s.is_empty()).collect();
                let mut cost = if *method == wanted { 0 } else { 2 };
                for i in 0..parts.len().max(segments.len()) {
                    cost += match (parts.get(i), segments.get(i)) {
                        (Some(p), Some(_)) if p.starts_with('{') => 0,
                        (Some(p), Some(s)) => {
                            distance_by_copies(&p.to_ascii_lowercase(), &s.to_ascii_lowercase())
                        }
                        (Some(p), None) if p.starts_with('{') => 1,
                        (Some(p), None) => p.len().min(4),
                        (None, Some(s)) => s.len().min(4),
                        (None, None) => 0,
                    };
                }
                (cost, msg!(method, " ", template))
            })
            .min_by_key(|(cost, _)| *cost)
            .filter(|(cost, _)| *cost <= path.len().max(4) / 2)
            .map(|(_, route)| route)
    }

    fn distance_by_copies(a: &str, b: &str) -> usize {
        let b: Vec<char> = b.chars().collect();
        let mut row: Vec<usize> = (0..=b.len()).collect();
        for (i, ca) in a.chars().enumerate() {
            let mut diagonal = row[0];
            row[0] = i + 1;
            for (j, cb) in b.iter().enumerate() {
                let above = row[j + 1];
                row[j + 1] = (above + 1)
                    .min(row[j] + 1)
                    .min(diagonal + usize::from(ca != *cb));
                diagonal = above;
            }
        }
        row[b.len()]
    }

    #[test]
    fn the_nearest_route_is_the_one_the_plain_definition_finds() {
        let mut rng = crate::sim::random::Rng::new(21);
        let pieces = [
            "api",
            "API",
            "Api",
            "order",
            "ordr",
            "orders",
            "ORDER",
            "create",
            "creat",
            "pay",
            "PAY",
            "delete",
            "payment",
            "paymnt",
            "refund",
            "test",
            "batch",
            "ORD-7K2Q9XWA",
            "x",
            "",
            "é",
            "ÉCRIRE",
            "ßß",
            "a\u{0}b",
            "verylongsegment",
        ];
        let methods = ["GET", "POST", "PUT", "DELETE", "get", "PATCH"];
        for _ in 0..20_000 {
            let mut path = String::new();
            for _ in 0..rng.below(6) {
                path.push('/');
                path.push_str(pieces[rng.below(pieces.len() as u64) as usize]);
            }
            if rng.below(4) == 0 {
                path.push('/');
            }
            let method = methods[rng.below(methods.len() as u64) as usize];
            for only in [false, true] {
                assert_eq!(
                    nearest(&path, method, only),
                    nearest_by_copies(&path, method, only),
                    "{method} {path} {only}"
                );
            }
        }
    }

    #[test]
    #[allow(clippy::useless_conversion)]
    fn every_documented_route_resolves() {
        let cases = [
            ("POST", "/api/order/create", Route::CreateOrder),
            ("GET", "/api/order/ORD-1", Route::GetOrder("ORD-1".into())),
            (
                "POST",
                "/api/order/ORD-1/pay",
                Route::MarkOrderPaid("ORD-1".into()),
            ),
            (
                "POST",
                "/api/order/delete/ORD-1",
                Route::DeleteOrder("ORD-1".into()),
            ),
            ("POST", "/api/payment/pay", Route::Pay),
            (
                "GET",
                "/api/payment/PAY-1",
                Route::GetPayment("PAY-1".into()),
            ),
            (
                "POST",
                "/api/payment/refund/PAY-1",
                Route::Refund("PAY-1".into()),
            ),
            ("GET", "/api/test/order/batch", Route::Batch),
        ];
        for (method, path, route) in cases {
            assert_eq!(resolve(method, path), Ok(route.clone()), "{method} {path}");
            assert_eq!(
                resolve(&method.to_lowercase(), path),
                Ok(route),
                "method case {method} {path}"
            );
        }
    }

    #[test]
    fn a_known_path_with_the_wrong_method_is_405_with_the_right_one() {
        for (method, path, allow) in [
            ("GET", "/api/order/create", "POST"),
            ("DELETE", "/api/order/ORD-1", "GET"),
            ("GET", "/api/payment/pay", "POST"),
            ("PUT", "/api/order/delete/ORD-1", "POST"),
            ("POST", "/api/test/order/batch", "GET"),
        ] {
            match resolve(method, path) {
                Err(ApiError::MethodNotAllowed { allow: a, .. }) => {
                    assert_eq!(a, allow, "{method} {path}")
                }
                other => panic!("{method} {path}: {other:?}"),
            }
        }
    }

    #[test]
    fn unknown_paths_are_404_with_the_nearest_route() {
        let hint = |path: &str| match resolve("POST", path) {
            Err(ApiError::NotFound { hint, .. }) => hint,
            other => panic!("{path}: {other:?}"),
        };
        assert_eq!(
            hint("/api/ordr/create").as_deref(),
            Some("POST /api/order/create")
        );
        assert_eq!(
            hint("/API/ORDER/CREATE").as_deref(),
            Some("POST /api/order/create")
        );
        assert_eq!(
            hint("/api/payment/refund/").as_deref(),
            Some("POST /api/payment/refund/{paymentId}")
        );
        assert_eq!(
            hint("/api/orders/create").as_deref(),
            Some("POST /api/order/create")
        );
        assert_eq!(hint("/totally/elsewhere/and/far/away/from/here"), None);
        assert!(matches!(
            resolve("GET", "/api/order/"),
            Err(ApiError::NotFound { .. })
        ));
        assert!(matches!(
            resolve("GET", "/api/order/create/"),
            Err(ApiError::NotFound { .. })
        ));
    }

    #[test]
    fn a_typo_that_looks_like_a_path_parameter_is_405_with_a_hint() {
        match resolve("POST", "/api/order/creat") {
            Err(ApiError::MethodNotAllowed { allow, hint, .. }) => {
                assert_eq!(
                    (allow, hint.as_deref()),
                    ("GET", Some("POST /api/order/create"))
                )
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn edit_distance_counts_single_edits() {
        assert_eq!(edit_distance("create", "creat"), 1);
        assert_eq!(edit_distance("pay", "pya"), 2);
        assert_eq!(edit_distance("", "abc"), 3);
    }
}
