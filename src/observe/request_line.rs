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

/// The rooms of request lines whose last span has left the journal, kept
/// for the next requests' lines: in the steady state every request lets
/// about one line go and makes one, and this saves an allocation and a
/// free for nearly all of them. Nothing reads the line kept (its path is let
/// go when the room is taken), so no output depends on it.
#[derive(Debug, Default)]
pub struct SpareCall {
    /// Two: a request that pushes out three spans can let two lines go.
    rooms: [Option<Rc<Call>>; 2],
}

impl SpareCall {
    /// Keeps `line` as the spare when nothing else holds it: called just
    /// before its last holder lets it go. A line with a user is not kept:
    /// the user may be shared with the orders' table of texts, which
    /// counts a text's holders to let it go (`Texts::release`).
    pub fn keep(&mut self, line: &Rc<Call>) {
        if Rc::strong_count(line) == 1 && line.user_id.is_none() {
            let [first, second] = &mut self.rooms;
            let room = if first.is_none() { first } else { second };
            *room = Some(Rc::clone(line));
        }
    }

    /// A room kept, the last first.
    fn take(&mut self) -> Option<Rc<Call>> {
        let [first, second] = &mut self.rooms;
        second.take().or_else(|| first.take())
    }

    /// How many rooms are kept.
    #[cfg(test)]
    pub fn kept(&self) -> usize {
        self.rooms.iter().flatten().count()
    }
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

    /// This line shared in the room of `spare` when it holds one, else
    /// in a new allocation.
    pub fn shared_in(self, spare: &mut SpareCall) -> Rc<Call> {
        if let Some(mut room) = spare.take() {
            if let Some(slot) = Rc::get_mut(&mut room) {
                *slot = self;
                return room;
            }
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn line(uri: &str, user: Option<&str>) -> Call {
        Call {
            method: Cow::Borrowed("GET"),
            uri: Cow::Owned(uri.to_owned()),
            template: Some("/api/order/{orderId}"),
            user_id: user.map(Rc::from),
        }
    }

    #[test]
    fn a_line_no_one_else_holds_is_kept_and_its_room_reused_with_the_new_contents() {
        let mut spare = SpareCall::default();
        let old = line("/api/order/ORD-AAAAAAAA", None).shared();
        let room = Rc::as_ptr(&old);
        spare.keep(&old);
        drop(old);
        assert_eq!(spare.kept(), 1);
        let new = line("/api/order/ORD-BBBBBBBB", None).shared_in(&mut spare);
        assert_eq!(Rc::as_ptr(&new), room);
        assert_eq!(*new, line("/api/order/ORD-BBBBBBBB", None));
        assert_eq!(spare.kept(), 0);
        // Two let go at once are both used, the last first.
        let (a, b) = (line("/a", None).shared(), line("/b", None).shared());
        let rooms = (Rc::as_ptr(&a), Rc::as_ptr(&b));
        spare.keep(&a);
        spare.keep(&b);
        drop((a, b));
        assert_eq!(spare.kept(), 2);
        let first = line("/c", None).shared_in(&mut spare);
        let second = line("/d", None).shared_in(&mut spare);
        assert_eq!((Rc::as_ptr(&second), Rc::as_ptr(&first)), rooms);
        assert_eq!((&*first, &*second), (&line("/c", None), &line("/d", None)));
        // With nothing kept, a new room.
        let next = line("/x", None).shared_in(&mut spare);
        assert_ne!(Rc::as_ptr(&next), room);
        assert_eq!(*next, line("/x", None));
    }

    #[test]
    fn a_line_held_elsewhere_or_naming_a_user_is_not_kept() {
        let mut spare = SpareCall::default();
        let held = line("/a", None).shared();
        let other = Rc::clone(&held);
        spare.keep(&held);
        assert_eq!(spare.kept(), 0);
        drop(other);
        let with_user = line("/a", Some("u1")).shared();
        spare.keep(&with_user);
        assert_eq!(spare.kept(), 0);
        // A room still held by a record when taken is not written over.
        spare.keep(&held);
        let reader = Rc::clone(&held);
        let new = line("/b", None).shared_in(&mut spare);
        assert_ne!(Rc::as_ptr(&new), Rc::as_ptr(&reader));
        assert_eq!(*reader, line("/a", None));
        assert_eq!(*new, line("/b", None));
    }
}
