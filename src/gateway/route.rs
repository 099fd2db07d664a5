//! The eight documented routes, matched by method and path. A path that
//! matches none gets 404 with the nearest route as a hint; a known path with
//! the wrong method gets 405 and the method to use.

use crate::prelude::*;

use crate::json::message::msg;

use super::error::ApiError;
use crate::observe::EventClass;

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

/// Which of the eight a route is, without its parameter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
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
pub(crate) const ROUTES: [(&str, &str, Kind); 8] = [
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
    let rest = path.strip_prefix("/api/")?;
    if rest.starts_with("order/") {
        Some("/order/*")
    } else if rest.starts_with("payment/") {
        Some("/payment/*")
    } else if rest.starts_with("test/") {
        Some("/test/*")
    } else {
        None
    }
}

/// The routes whose template fits a path, keeping only the most literal
/// ones: `/api/order/create` is the create route, not an order named
/// "create", so GET on it is a 405 rather than an unknown order. Found
/// once per request, with no allocation and no borrow of the path (so the
/// path can move into the request line); every question about the path
/// (its route, its template, its event class) is answered from it, the
/// parameter cut from the same path again.
#[derive(Debug, Clone, Copy)]
pub struct Matches {
    /// The most literal fits: index into `ROUTES` and where the parameter
    /// lies in the path, in documented order. At most two routes tie
    /// (`POST /api/order/delete/pay` fits mark-paid and delete).
    hits: [(usize, usize, usize); 2],
    len: usize,
}

impl Matches {
    /// Reads the path once, by its prefix and then its rest: the same
    /// fits as comparing it with every template (the `oracle` of the
    /// tests), without the comparisons.
    pub fn of(path: &str) -> Matches {
        let mut found = Matches {
            hits: [(0, 0, 0); 2],
            len: 0,
        };
        let mut hit = |i: usize, param: (usize, usize)| {
            if let Some(slot) = found.hits.get_mut(found.len) {
                *slot = (i, param.0, param.1);
                found.len += 1;
            }
        };
        // A parameter is a non-empty segment; where it lies in the path.
        let param = |from: usize, to: usize| {
            path.get(from..to)
                .filter(|s| !s.is_empty() && s.bytes().all(|b| b != b'/'))
                .map(|_| (from, to))
        };
        const ORDER: &str = "/api/order/";
        const PAYMENT: &str = "/api/payment/";
        let end = path.len();
        if let Some(rest) = path.strip_prefix(ORDER) {
            let at = ORDER.len();
            if rest == "create" {
                hit(0, (0, 0));
            } else if let Some(p) = param(at, end) {
                hit(1, p);
            } else {
                // Both have four literals, so a path that fits both keeps
                // both, in documented order.
                if rest.ends_with("/pay") {
                    if let Some(p) = param(at, end - "/pay".len()) {
                        hit(2, p);
                    }
                }
                if rest.starts_with("delete/") {
                    if let Some(p) = param(at + "delete/".len(), end) {
                        hit(3, p);
                    }
                }
            }
        } else if let Some(rest) = path.strip_prefix(PAYMENT) {
            let at = PAYMENT.len();
            if rest == "pay" {
                hit(4, (0, 0));
            } else if let Some(p) = param(at, end) {
                hit(5, p);
            } else if rest.starts_with("refund/") {
                if let Some(p) = param(at + "refund/".len(), end) {
                    hit(6, p);
                }
            }
        } else if path == "/api/test/order/batch" {
            hit(7, (0, 0));
        }
        found
    }

    /// The best-fitting routes, in documented order: method, template,
    /// kind, and where the parameter lies.
    fn best(
        &self,
    ) -> impl Iterator<Item = (&'static str, &'static str, Kind, (usize, usize))> + '_ {
        let hits = self.hits.get(..self.len).unwrap_or_default();
        hits.iter().filter_map(|&(i, from, to)| {
            let &(method, template, kind) = ROUTES.get(i)?;
            Some((method, template, kind, (from, to)))
        })
    }

    /// The fit a method takes: the first of that method, else the first
    /// of any (whose template still names the path, and whose method a
    /// 405 names); `None` when nothing fits. Found once a request, for
    /// both its template and its route.
    pub fn pick(&self, method: &str) -> Option<Pick> {
        let hits = self.hits.get(..self.len).unwrap_or_default();
        let of_method = hits
            .iter()
            .position(|&(i, ..)| ROUTES.get(i).is_some_and(|(m, ..)| same_method(m, method)));
        match of_method {
            Some(at) => Some(Pick { at, allowed: true }),
            None if hits.is_empty() => None,
            None => Some(Pick {
                at: 0,
                allowed: false,
            }),
        }
    }

    /// The route of the fit picked: method, template and kind, and where
    /// the parameter lies.
    fn picked(&self, pick: Pick) -> Option<Fit> {
        let &(i, from, to) = self.hits.get(pick.at)?;
        ROUTES.get(i).map(|&route| (route, (from, to)))
    }

    /// The documented template of the path, the one of the method when
    /// several fit, whichever method it was sent with.
    pub fn template(&self, method: &str) -> Option<&'static str> {
        self.template_of(self.pick(method))
    }

    /// `template` from the fit already picked.
    pub fn template_of(&self, pick: Option<Pick>) -> Option<&'static str> {
        self.picked(pick?).map(|((_, template, _), _)| template)
    }

    /// The path's event class when it names a documented path, whatever
    /// the method: a 405 on an order path is still about orders.
    pub fn event_class(&self) -> Option<EventClass> {
        self.best()
            .next()
            .map(|(_, _, kind, _)| build(kind, "").event_class())
    }

    /// The route of an upper-case method on `path` (the path these
    /// matches were found in), or the 404 or 405 that says why there is
    /// none.
    pub fn resolve<'p>(&self, method: &str, path: &'p str) -> Result<Route<'p>, ApiError> {
        self.resolve_picked(self.pick(method), method, path)
    }

    /// `resolve` from the fit already picked for `method`.
    pub fn resolve_picked<'p>(
        &self,
        pick: Option<Pick>,
        method: &str,
        path: &'p str,
    ) -> Result<Route<'p>, ApiError> {
        match pick.and_then(|p| Some((p.allowed, self.picked(p)?))) {
            Some((true, ((_, _, kind), (from, to)))) => {
                Ok(build(kind, path.get(from..to).unwrap_or_default()))
            }
            Some((false, ((allow, ..), _))) => Err(ApiError::MethodNotAllowed {
                allow,
                hint: nearest(path, method, true),
                method: method.to_owned(),
                path: path.to_owned(),
            }),
            None => Err(ApiError::NotFound {
                hint: nearest(path, method, false),
                method: method.to_owned(),
                path: path.to_owned(),
            }),
        }
    }
}

/// A route of `ROUTES` (method, template, kind) and where its parameter
/// lies in the path.
type Fit = ((&'static str, &'static str, Kind), (usize, usize));

/// The fit a request's method takes among a path's `Matches`: where it
/// is, and whether it is of that method (else the request is a 405).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pick {
    at: usize,
    allowed: bool,
}

/// Whether a route's method is the request's: a few bytes compared in
/// place, where `==` on `str` calls out to a general byte comparison that
/// costs more than the bytes themselves.
#[inline]
fn same_method(route: &str, method: &str) -> bool {
    route.len() == method.len() && route.bytes().zip(method.bytes()).all(|(a, b)| a == b)
}

/// The path's event class when it names a documented path, whatever the
/// method.
pub fn event_class_of_path(path: &str) -> Option<EventClass> {
    Matches::of(path).event_class()
}

/// The documented template of a path, `/api/order/{orderId}` for
/// `/api/order/ORD-…`, whichever method it was sent with. A template
/// given as the path names itself.
pub fn template_of(method: &str, path: &str) -> Option<&'static str> {
    Matches::of(path).template(&method.to_ascii_uppercase())
}

/// The template a snapshot's record or span names, by its method and uri
/// (or template).
pub fn template_named(method: &str, uri: &str) -> Option<&'static str> {
    template_of(method, uri)
}

/// Matches method (any letter case) and path (exact case, as servers do).
pub fn resolve<'p>(method: &str, path: &'p str) -> Result<Route<'p>, ApiError> {
    Matches::of(path).resolve(&method.to_ascii_uppercase(), path)
}

fn build(kind: Kind, param: &str) -> Route<'_> {
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
    // The first route of the least cost, its text made for it alone.
    let mut best: Option<(usize, &str, &str)> = None;
    for (method, template, _) in ROUTES.iter() {
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

/// The definition `Matches::of` is checked against: every template
/// compared with the path, the most literal fits kept.
#[cfg(test)]
mod oracle {
    use super::ROUTES;

    /// The number of literal segments of a template (the empty one before
    /// the first `/` included, as every path has it): a fit matches all of
    /// them, so the most literal fit wins.
    pub(super) const fn literals(template: &str) -> usize {
        let bytes = template.as_bytes();
        let (mut i, mut segments, mut params) = (0, 1, 0);
        while i < bytes.len() {
            match bytes[i] {
                b'/' => segments += 1,
                b'{' => params += 1,
                _ => {}
            }
            i += 1;
        }
        segments - params
    }

    /// Where a template's parameter starts (`{`) and where its literal tail
    /// starts (after `}`); the template's length twice when it has none.
    pub(super) const fn braces(template: &str) -> (usize, usize) {
        let bytes = template.as_bytes();
        let (mut i, mut open) = (0, bytes.len());
        while i < bytes.len() {
            if bytes[i] == b'{' {
                open = i;
            }
            if bytes[i] == b'}' {
                return (open, i + 1);
            }
            i += 1;
        }
        (open, open)
    }

    /// Each route's literal count and the places of its parameter, worked out
    /// once, at compile time.
    pub(super) const SHAPES: [(usize, usize, usize); 8] = {
        let mut out = [(0, 0, 0); 8];
        let mut i = 0;
        while i < 8 {
            let (open, close) = braces(ROUTES[i].1);
            out[i] = (literals(ROUTES[i].1), open, close);
            i += 1;
        }
        out
    };

    /// How a path fits a template: its literal head and tail compared whole,
    /// the parameter between them a non-empty segment. Returns the literal
    /// count and the parameter; `None` when it does not fit.
    pub(super) fn fits<'p>(
        template: &str,
        (literals, open, close): (usize, usize, usize),
        path: &'p str,
    ) -> Option<(usize, &'p str)> {
        let (t, p) = (template.as_bytes(), path.as_bytes());
        if open == t.len() {
            return (t == p).then_some((literals, ""));
        }
        let (head, tail) = (t.get(..open)?, t.get(close..)?);
        if p.len() <= head.len() + tail.len() || !p.starts_with(head) || !p.ends_with(tail) {
            return None;
        }
        let param = path.get(open..p.len() - tail.len())?;
        (!param.as_bytes().contains(&b'/')).then_some((literals, param))
    }

    /// The most literal fits of a path: index into `ROUTES` and parameter.
    pub(super) fn generic(path: &str) -> Vec<(usize, &str)> {
        let mut found = Vec::new();
        let mut most = 0;
        for (i, ((_, template, _), shape)) in ROUTES.iter().zip(SHAPES).enumerate() {
            let Some((literals, param)) = fits(template, shape, path) else {
                continue;
            };
            if literals > most {
                (most, found) = (literals, Vec::new());
            }
            if literals == most {
                found.push((i, param));
            }
        }
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `nearest` as it was written first, with the texts copied in lower
    /// case and the segments collected: the definition it is checked
    /// against.
    fn nearest_by_copies(path: &str, wanted: &str, only_method: bool) -> Option<String> {
        let segments: Vec<&str> = path.split(['/']).filter(|s| !s.is_empty()).collect();
        ROUTES
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
    fn matching_by_bytes_finds_what_comparing_every_template_finds() {
        let paths = [
            "/api/order/create",
            "/api/order/ORD-1",
            "/api/order/ORD-1/pay",
            "/api/order/delete/ORD-1",
            "/api/order/delete/pay",
            "/api/order/delete",
            "/api/order/pay",
            "/api/order/create/pay",
            "/api/order//pay",
            "/api/order/delete/",
            "/api/order/",
            "/api/order",
            "/api/order/a/b",
            "/api/order/a/b/pay",
            "/api/order/{orderId}",
            "/api/order/{orderId}/pay",
            "/api/payment/pay",
            "/api/payment/PAY-1",
            "/api/payment/refund/PAY-1",
            "/api/payment/refund/",
            "/api/payment/refund",
            "/api/payment/pay/x",
            "/api/payment/",
            "/api/test/order/batch",
            "/api/test/order/batch/",
            "/api/test/order",
            "/api/test/",
            "/API/ORDER/CREATE",
            "/",
            "",
            "/api/ordér/é",
            "/api/order/é/pay",
            "/api/payment/refund/a/b",
        ];
        for path in paths {
            let m = Matches::of(path);
            let found: Vec<(usize, &str)> = m.hits[..m.len]
                .iter()
                .map(|&(i, from, to)| (i, &path[from..to]))
                .collect();
            assert_eq!(found, oracle::generic(path), "{path}");
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
