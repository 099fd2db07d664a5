//! The eight documented routes, matched by method and path. A path that
//! matches none gets 404 with the nearest route as a hint; a known path with
//! the wrong method gets 405 and the method to use.

use super::error::ApiError;
use crate::observe::EventClass;

/// A matched route, with its path parameter where it has one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Route {
    CreateOrder,
    GetOrder(String),
    MarkOrderPaid(String),
    DeleteOrder(String),
    Pay,
    GetPayment(String),
    Refund(String),
    Batch,
}

impl Route {
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

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    CreateOrder,
    GetOrder,
    MarkOrderPaid,
    DeleteOrder,
    Pay,
    GetPayment,
    Refund,
    Batch,
}

/// The routes as the spec documents them; `{…}` is a path parameter.
const ROUTES: [(&str, &str, Kind); 8] = [
    ("POST", "/api/order/create", Kind::CreateOrder),
    ("GET", "/api/order/{orderId}", Kind::GetOrder),
    ("POST", "/api/order/{orderId}/pay", Kind::MarkOrderPaid),
    ("POST", "/api/order/delete/{orderId}", Kind::DeleteOrder),
    ("POST", "/api/payment/pay", Kind::Pay),
    ("GET", "/api/payment/{paymentId}", Kind::GetPayment),
    ("POST", "/api/payment/refund/{paymentId}", Kind::Refund),
    ("GET", "/api/test/order/batch", Kind::Batch),
];

/// The log's `uri_group`, by the path's prefix, known route or not.
pub fn uri_group(path: &str) -> Option<&'static str> {
    [
        ("/api/order/", "/order/*"),
        ("/api/payment/", "/payment/*"),
        ("/api/test/", "/test/*"),
    ]
    .into_iter()
    .find(|(prefix, _)| path.starts_with(prefix))
    .map(|(_, group)| group)
}

/// The path's event class when it names a documented path, whatever the
/// method: a 405 on an order path is still about orders.
pub fn event_class_of_path(path: &str) -> Option<EventClass> {
    best_matches(path)
        .into_iter()
        .next()
        .map(|(_, param, kind)| build(kind, param).event_class())
}

/// The documented template of a path, `/api/order/{orderId}` for
/// `/api/order/ORD-…`, whichever method it was sent with.
pub fn template_of(method: &str, path: &str) -> Option<&'static str> {
    let method = method.to_ascii_uppercase();
    let found = best_matches(path);
    let kind = found
        .iter()
        .find(|(m, _, _)| *m == method)
        .or(found.first())
        .map(|(_, _, k)| *k)?;
    ROUTES
        .iter()
        .find(|(_, _, k)| *k == kind)
        .map(|(_, t, _)| *t)
}

/// Matches method (any letter case) and path (exact case, as servers do).
pub fn resolve(method: &str, path: &str) -> Result<Route, ApiError> {
    let method_upper = method.to_ascii_uppercase();
    let candidates = best_matches(path);
    if candidates.is_empty() {
        return Err(ApiError::NotFound {
            hint: nearest(path, &method_upper, false),
            method: method_upper,
            path: path.to_owned(),
        });
    }
    match candidates.iter().find(|(m, _, _)| *m == method_upper) {
        Some((_, param, kind)) => Ok(build(*kind, param.clone())),
        None => Err(ApiError::MethodNotAllowed {
            allow: candidates[0].0,
            hint: nearest(path, &method_upper, true),
            method: method_upper,
            path: path.to_owned(),
        }),
    }
}

/// The routes whose template fits the path, keeping only the most literal
/// ones: `/api/order/create` is the create route, not an order named
/// "create", so GET on it is a 405 rather than an unknown order.
fn best_matches(path: &str) -> Vec<(&'static str, String, Kind)> {
    let segments: Vec<&str> = path.split('/').collect();
    let mut found: Vec<(usize, &'static str, String, Kind)> = Vec::new();
    for (method, template, kind) in ROUTES {
        let parts: Vec<&str> = template.split('/').collect();
        if parts.len() != segments.len() {
            continue;
        }
        let mut param = String::new();
        let mut literals = 0;
        let fits = parts.iter().zip(&segments).all(|(part, seg)| {
            if part.starts_with('{') {
                param = (*seg).to_owned();
                !seg.is_empty()
            } else {
                literals += 1;
                part == seg
            }
        });
        if fits {
            found.push((literals, method, param, kind));
        }
    }
    let most = found.iter().map(|f| f.0).max().unwrap_or(0);
    found
        .into_iter()
        .filter(|f| f.0 == most)
        .map(|(_, m, p, k)| (m, p, k))
        .collect()
}

fn build(kind: Kind, param: String) -> Route {
    match kind {
        Kind::CreateOrder => Route::CreateOrder,
        Kind::GetOrder => Route::GetOrder(param),
        Kind::MarkOrderPaid => Route::MarkOrderPaid(param),
        Kind::DeleteOrder => Route::DeleteOrder(param),
        Kind::Pay => Route::Pay,
        Kind::GetPayment => Route::GetPayment(param),
        Kind::Refund => Route::Refund(param),
        Kind::Batch => Route::Batch,
    }
}

/// The documented route closest to the path: segment by segment, a path
/// parameter fits any segment, and literals compare by edit distance
/// without regard to case. Nothing is offered when nothing is close.
/// Routes of the request's method come first; with `only_method`, no
/// other is offered: `POST /api/order/creat` is nearest to the create
/// route, not to reading an order named "creat".
fn nearest(path: &str, wanted: &str, only_method: bool) -> Option<String> {
    let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    ROUTES
        .iter()
        .filter(|(method, _, _)| !only_method || *method == wanted)
        .map(|(method, template, _)| {
            let parts: Vec<&str> = template.split('/').filter(|s| !s.is_empty()).collect();
            let mut cost = if *method == wanted { 0 } else { 2 };
            for i in 0..parts.len().max(segments.len()) {
                cost += match (parts.get(i), segments.get(i)) {
                    (Some(p), Some(_)) if p.starts_with('{') => 0,
                    (Some(p), Some(s)) => {
                        edit_distance(&p.to_ascii_lowercase(), &s.to_ascii_lowercase())
                    }
                    (Some(p), None) if p.starts_with('{') => 1,
                    (Some(p), None) => p.len().min(4),
                    (None, Some(s)) => s.len().min(4),
                    (None, None) => 0,
                };
            }
            (cost, format!("{method} {template}"))
        })
        .min_by_key(|(cost, _)| *cost)
        .filter(|(cost, _)| *cost <= path.len().max(4) / 2)
        .map(|(_, route)| route)
}

fn edit_distance(a: &str, b: &str) -> usize {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
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
    fn uri_groups_follow_the_prefix() {
        assert_eq!(uri_group("/api/order/x/y/z"), Some("/order/*"));
        assert_eq!(uri_group("/api/payment/pay"), Some("/payment/*"));
        assert_eq!(uri_group("/api/test/order/batch"), Some("/test/*"));
        assert_eq!(uri_group("/health"), None);
    }

    #[test]
    fn edit_distance_counts_single_edits() {
        assert_eq!(edit_distance("create", "creat"), 1);
        assert_eq!(edit_distance("pay", "pya"), 2);
        assert_eq!(edit_distance("", "abc"), 3);
    }
}
