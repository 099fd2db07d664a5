//! Every route the gateway answers as a table (method, template, kind):
//! the eight documented routes of the spec, which answer the envelope,
//! then the challenge page's two, which answer HTML; which of the eight a
//! path fits: its template and its log `uri_group`; and which page a path
//! is. The gateway routes by it; the log's writer and reader (`observe`)
//! name a request by its template and group. What a request that fits
//! none is answered (404, 405) is the gateway's (`route.rs`).
//!
//! A page is served before the eight are routed, and only for a payment
//! that is or was challenged: any other payment's page path answers as if
//! the page were not in the table (404, the hint among the eight), and
//! neither a scenario's rules nor an `Idempotency-Key` apply to a page.

/// Which route it is, without its parameter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    CreateOrder,
    GetOrder,
    MarkOrderPaid,
    DeleteOrder,
    Pay,
    GetPayment,
    Refund,
    Batch,
    /// The 3-D Secure challenge page: GET shows it, POST takes the
    /// buyer's answer. HTML, not an envelope.
    ChallengePage,
}

/// The routes: the spec's eight as it documents them, then the pages;
/// `{…}` is a path parameter.
pub const ROUTES: [(&str, &str, Kind); 10] = [
    ("POST", "/api/order/create", Kind::CreateOrder),
    ("GET", "/api/order/{orderId}", Kind::GetOrder),
    ("POST", "/api/order/{orderId}/pay", Kind::MarkOrderPaid),
    ("POST", "/api/order/delete/{orderId}", Kind::DeleteOrder),
    ("POST", "/api/payment/pay", Kind::Pay),
    ("GET", "/api/payment/{paymentId}", Kind::GetPayment),
    ("POST", "/api/payment/refund/{paymentId}", Kind::Refund),
    ("GET", "/api/test/order/batch", Kind::Batch),
    ("GET", CHALLENGE, Kind::ChallengePage),
    ("POST", CHALLENGE, Kind::ChallengePage),
];

/// The spec's eight, which answer the envelope: what `Matches` routes,
/// a 404's hint offers and a scenario's rule names.
pub const API_ROUTES: &[(&str, &str, Kind)] = ROUTES.split_at(8).0;

/// The challenge page's template: a payment's `nextAction.url`.
const CHALLENGE: &str = "/api/payment/{paymentId}/challenge";

/// The challenge page's template around its parameter: the literal head
/// and tail a path of it has, cut at compile time.
const CHALLENGE_CUT: (&str, &str) = {
    let (open, close) = braces(CHALLENGE);
    let bytes = CHALLENGE.as_bytes();
    let head = core::str::from_utf8(bytes.split_at(open).0);
    let tail = core::str::from_utf8(bytes.split_at(close).1);
    match (head, tail) {
        (Ok(head), Ok(tail)) => (head, tail),
        // Cut at ASCII braces, so never: a compile error if it were.
        _ => panic!("the challenge template cut is not UTF-8"),
    }
};

/// The parameter of a page's path for this (upper-case) method: the
/// payment id of `GET` or `POST /api/payment/{paymentId}/challenge`,
/// the pages of `ROUTES`.
pub fn page_param<'p>(method: &str, path: &'p str) -> Option<&'p str> {
    let pages = ROUTES.get(API_ROUTES.len()..).unwrap_or_default();
    if !pages.iter().any(|(m, ..)| *m == method) {
        return None;
    }
    let (head, tail) = CHALLENGE_CUT;
    let param = path.strip_prefix(head)?.strip_suffix(tail)?;
    (!param.is_empty() && !param.contains('/')).then_some(param)
}

/// Where a template's parameter starts (`{`) and where its literal tail
/// starts (after `}`); the template's length twice when it has none.
/// Worked out at compile time.
const fn braces(template: &str) -> (usize, usize) {
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
    pub(crate) fn picked(&self, pick: Pick) -> Option<Fit> {
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

    /// The kind of the best fit, whatever the method: a 405 on an order
    /// path is still about orders.
    pub(crate) fn kind(&self) -> Option<Kind> {
        self.best().next().map(|(_, _, kind, _)| kind)
    }
}

/// A route of `ROUTES` (method, template, kind) and where its parameter
/// lies in the path.
pub(crate) type Fit = ((&'static str, &'static str, Kind), (usize, usize));

/// The fit a request's method takes among a path's `Matches`: where it
/// is, and whether it is of that method (else the request is a 405).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pick {
    at: usize,
    allowed: bool,
}

impl Pick {
    /// Whether the fit is of the request's method (else the request is a
    /// 405).
    pub fn allowed(self) -> bool {
        self.allowed
    }
}

/// Whether a route's method is the request's: a few bytes compared in
/// place, where `==` on `str` calls out to a general byte comparison that
/// costs more than the bytes themselves.
#[inline]
fn same_method(route: &str, method: &str) -> bool {
    route.len() == method.len() && route.bytes().zip(method.bytes()).all(|(a, b)| a == b)
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

/// The definition `Matches::of` is checked against: every template of
/// the eight compared with the path, the most literal fits kept.
#[cfg(test)]
mod oracle {
    use super::{braces, API_ROUTES, ROUTES};

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

    /// Each of the eight's literal count and the places of its parameter,
    /// worked out once, at compile time.
    pub(super) const SHAPES: [(usize, usize, usize); API_ROUTES.len()] = {
        let mut out = [(0, 0, 0); API_ROUTES.len()];
        let mut i = 0;
        while i < API_ROUTES.len() {
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
        for (i, ((_, template, _), shape)) in API_ROUTES.iter().zip(SHAPES).enumerate() {
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
    fn a_page_is_its_template_of_its_method_and_none_of_the_eight_fits_it() {
        let id = "/api/payment/PAY-1/challenge";
        assert_eq!(page_param("GET", id), Some("PAY-1"));
        assert_eq!(page_param("POST", id), Some("PAY-1"));
        for (method, path) in [
            ("PUT", id),
            ("get", id),
            ("GET", "/api/payment//challenge"),
            ("GET", "/api/payment/a/b/challenge"),
            ("GET", "/api/payment/PAY-1/challenge/"),
            ("GET", "/api/payment/PAY-1"),
            ("GET", "/api/order/ORD-1/challenge"),
        ] {
            assert_eq!(page_param(method, path), None, "{method} {path}");
        }
        // The eight route as before: the page's path fits none of them.
        assert_eq!(Matches::of(id).len, 0);
        assert_eq!(API_ROUTES.len(), 8);
        assert!(ROUTES[8..]
            .iter()
            .all(|r| r.1 == CHALLENGE && r.2 == Kind::ChallengePage));
    }

    #[test]
    fn uri_groups_follow_the_prefix() {
        assert_eq!(uri_group("/api/order/x/y/z"), Some("/order/*"));
        assert_eq!(uri_group("/api/payment/pay"), Some("/payment/*"));
        assert_eq!(uri_group("/api/test/order/batch"), Some("/test/*"));
        assert_eq!(uri_group("/health"), None);
    }
}
