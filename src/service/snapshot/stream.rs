//! A snapshot read as its text comes, in pieces split anywhere, straight
//! into the new service's tables: no tree of the whole text is built.
//!
//! The outer shape (the snapshot object, its `orders`, `payments` and
//! `journal`, and their long lists `live`, `by_id`, `records`, `spans`) is
//! read member by member with the JSON reader's own steps; each order,
//! payment, record or span is parsed alone, once its text is complete, and
//! read into its compact form at once. Every other member is small: its
//! place in the text is noted, and at `finish` those members and
//! placeholders for the long lists make a small tree that the snapshot
//! reader reads with the lists read here (`read::read_tree`). This is
//! the module's one reader of the format: `Service::restore` is these
//! steps run over the whole text (`read_whole`), a `Restoring` runs them
//! piece by piece. So a text gets the same refusal, with the same message,
//! whether it is restored whole or in pieces of any size:
//!
//! - a text that is not JSON is refused by the piece that shows it (the
//!   first syntax error is the refusal whatever follows);
//! - anything else is refused by `finish`, in the snapshot reader's fixed
//!   order, then `check`'s.

use crate::prelude::*;

use alloc::collections::VecDeque;

use super::fields::Read;
use super::parts::Parts;
use super::read::{self, Streamed, StreamedOrders};
use super::{journal, read_back};
use crate::domain::{Orders, Payments};
use crate::json::read::Reader;
use crate::json::{self, Json, ReadError};
use crate::observe::entry::Entry;
use crate::observe::span_entry::SpanEntry;
use crate::sim::invalid::Invalid;

/// The whole text at once, through the same steps: `Service::restore`.
pub(crate) fn read_whole(text: &str) -> Result<Parts, Invalid> {
    Reading::default().finish(text)
}

/// What a container of the snapshot is, for the reader.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Role {
    Top,
    Orders,
    Payments,
    Journal,
    Live,
    Deleted,
    Made,
    ById,
    Attempts,
    Records,
    Spans,
}

impl Role {
    fn is_array(self) -> bool {
        matches!(self, Role::Records | Role::Spans | Role::Deleted)
    }

    /// The long list under `key` in this container, read element by
    /// element, and the byte that opens it.
    fn list(self, key: &str) -> Option<(Role, u8)> {
        match (self, key) {
            (Role::Top, "orders") => Some((Role::Orders, b'{')),
            (Role::Top, "payments") => Some((Role::Payments, b'{')),
            (Role::Top, "journal") => Some((Role::Journal, b'{')),
            (Role::Orders, "live") => Some((Role::Live, b'{')),
            (Role::Orders, "deleted") => Some((Role::Deleted, b'[')),
            (Role::Orders, "made") => Some((Role::Made, b'{')),
            (Role::Payments, "by_id") => Some((Role::ById, b'{')),
            (Role::Payments, "attempts") => Some((Role::Attempts, b'{')),
            (Role::Journal, "records") => Some((Role::Records, b'[')),
            (Role::Journal, "spans") => Some((Role::Spans, b'[')),
            _ => None,
        }
    }
}

/// Where in its container the reader stands.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Place {
    /// A key (an object) or an item (an array) comes next; the first may
    /// instead close the container, a later one may not (trailing comma).
    Next {
        first: bool,
    },
    Colon,
    Value,
    /// A comma or the closing bracket comes next.
    After,
}

/// A member of a container: its text's place, a container read member by
/// member, or a long list read element by element.
enum Member {
    Text(usize),
    Open(Vec<(String, Member)>),
    /// A long list: an empty object or array in its place.
    Listed {
        array: bool,
    },
}

struct Frame {
    role: Role,
    place: Place,
    /// The key of the member being read (objects).
    key: String,
    /// Members so far (the snapshot object and its three parts).
    members: Vec<(String, Member)>,
    /// Elements so far (the long lists).
    items: usize,
}

impl Frame {
    fn new(role: Role) -> Frame {
        Frame {
            role,
            place: Place::Next { first: true },
            key: String::new(),
            members: Vec::new(),
            items: 0,
        }
    }
}

/// How far a value still arriving has been scanned, so each byte is
/// looked at once however many pieces it takes to complete.
#[derive(Clone, Copy, Default)]
struct Scan {
    at: usize,
    kind: Kind,
    depth: u32,
    in_string: bool,
    escaped: bool,
}

/// What a value being scanned is, from its first byte.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
enum Kind {
    #[default]
    Unknown,
    Text,
    Nested,
    Word,
}

/// A snapshot being read: how far, and what its long lists gave so far.
#[derive(Default)]
pub(crate) struct Reading {
    /// Where the next unread byte is.
    at: usize,
    stack: Vec<Frame>,
    /// The snapshot object's members, once it is closed.
    top: Option<Vec<(String, Member)>>,
    /// Not an object: read whole at `finish`, as `read` reads it.
    whole: bool,
    scan: Option<Scan>,
    orders: StreamedOrders,
    by_id: Option<Read<Payments>>,
    attempts: Option<Read<Payments>>,
    records: Option<Result<VecDeque<Entry>, String>>,
    spans: Option<Result<VecDeque<SpanEntry>, String>>,
    calls: journal::Calls,
}

/// More text is needed before the next step.
struct More;

enum Stop {
    More(More),
    Broken(ReadError),
}

impl From<ReadError> for Stop {
    fn from(e: ReadError) -> Stop {
        Stop::Broken(e)
    }
}

impl From<More> for Stop {
    fn from(m: More) -> Stop {
        Stop::More(m)
    }
}

impl Reading {
    /// Reads on as far as `text` allows; `done` says no more will come.
    pub(crate) fn read(&mut self, text: &str, done: bool) -> Result<(), ReadError> {
        match self.steps(text, done) {
            Ok(()) | Err(Stop::More(_)) => Ok(()),
            Err(Stop::Broken(e)) => Err(e),
        }
    }

    /// Reads the rest, `text` being whole, and the parts it makes, or
    /// the first refusal.
    pub(crate) fn finish(&mut self, text: &str) -> Result<Parts, Invalid> {
        self.read(text, true).map_err(read::not_json)?;
        let top = match self.top.take() {
            Some(top) if !self.whole => top,
            // Not an object: refused as such, with no lists to read.
            _ => {
                return read::read_tree(
                    &json::parse(text).map_err(read::not_json)?,
                    Streamed::default(),
                )
            }
        };
        let tree = tree_of(text, top, 1).map_err(read::not_json)?;
        read::read_tree(
            &tree,
            Streamed {
                orders: core::mem::take(&mut self.orders),
                by_id: self.by_id.take(),
                attempts: self.attempts.take(),
                records: self.records.take(),
                spans: self.spans.take(),
            },
        )
    }

    fn steps(&mut self, text: &str, done: bool) -> Result<(), Stop> {
        if self.whole {
            return Ok(());
        }
        let mut r = Reader::at_offset(text, self.at);
        let result = self.walk(&mut r, done);
        self.at = r.at;
        result
    }

    fn walk(&mut self, r: &mut Reader, done: bool) -> Result<(), Stop> {
        if self.top.is_some() {
            return trailing(r);
        }
        if self.stack.is_empty() {
            match r.peek() {
                Some(b'{') => {
                    r.enter(1)?;
                    self.stack.push(Frame::new(Role::Top));
                }
                Some(_) => {
                    self.whole = true;
                    return Ok(());
                }
                None if done => {
                    self.whole = true;
                    return Ok(());
                }
                None => return Err(More.into()),
            }
        }
        while let Some(frame) = self.stack.last() {
            let depth = self.stack.len();
            let (role, place) = (frame.role, frame.place);
            match place {
                Place::Next { first } => self.next(r, done, role, first)?,
                Place::Colon => {
                    match byte(r, done)? {
                        Some(b':') => r.at += 1,
                        None => return Err(r.fail("EOF while parsing an object").into()),
                        Some(_) => return Err(r.fail("expected `:`").into()),
                    }
                    self.set(Place::Value);
                }
                Place::Value => self.value(r, done, depth)?,
                Place::After => self.after(r, done, role)?,
            }
            if self.top.is_some() {
                return trailing(r);
            }
        }
        Ok(())
    }

    fn set(&mut self, place: Place) {
        if let Some(frame) = self.stack.last_mut() {
            frame.place = place;
        }
    }

    /// A key or an item, or the container's end.
    fn next(&mut self, r: &mut Reader, done: bool, role: Role, first: bool) -> Result<(), Stop> {
        let close = if role.is_array() { b']' } else { b'}' };
        let found = byte(r, done)?;
        if found == Some(close) {
            if !first {
                return Err(r.fail("trailing comma").into());
            }
            r.at += 1;
            return self.close();
        }
        if role.is_array() {
            self.set(Place::Value);
            return Ok(());
        }
        match found {
            Some(b'"') => {
                self.complete(r, done)?;
                let key = r.string()?.into_owned();
                if let Some(frame) = self.stack.last_mut() {
                    frame.key = key;
                    frame.place = Place::Colon;
                }
                Ok(())
            }
            None => Err(r.fail("EOF while parsing an object").into()),
            Some(_) => Err(r.fail("key must be a string").into()),
        }
    }

    fn value(&mut self, r: &mut Reader, done: bool, depth: usize) -> Result<(), Stop> {
        let Some(frame) = self.stack.last() else {
            return Ok(());
        };
        let role = frame.role;
        let opens = role
            .list(&frame.key)
            .filter(|_| !frame.members.iter().any(|(k, _)| *k == frame.key));
        if let Some((list, opener)) = opens {
            if byte(r, done)? == Some(opener) {
                r.enter(depth + 1)?;
                self.set(Place::After);
                self.stack.push(Frame::new(list));
                self.begin(list);
                return Ok(());
            }
        }
        self.complete(r, done)?;
        if matches!(role, Role::Records | Role::Spans) && self.written(role, r) {
            self.set(Place::After);
            return Ok(());
        }
        let start = r.at;
        let value = r.value(depth)?;
        self.take(role, start, &value);
        self.set(Place::After);
        Ok(())
    }

    /// A member or an element whose text is complete: an element of a long
    /// list is read now, a member's place is noted.
    fn take(&mut self, role: Role, start: usize, value: &Json) {
        let Some(frame) = self.stack.last_mut() else {
            return;
        };
        let i = frame.items;
        frame.items += 1;
        match role {
            Role::Top | Role::Orders | Role::Payments | Role::Journal => {
                let key = core::mem::take(&mut frame.key);
                frame.members.push((key, Member::Text(start)));
            }
            Role::Live => feed(&mut self.orders.live, |orders| {
                read::order_member(orders, &frame.key, value, "snapshot.orders.live")
            }),
            Role::Deleted => feed(&mut self.orders.deleted, |orders| {
                read::deleted_item(orders, i, value, "snapshot.orders.deleted")
            }),
            Role::Made => feed(&mut self.orders.made, |orders| {
                read::made_member(orders, &frame.key, value, "snapshot.orders.made")
            }),
            Role::Attempts => feed(&mut self.attempts, |payments| {
                read::attempts_member(payments, &frame.key, value, "snapshot.payments.attempts")
            }),
            Role::ById => feed(&mut self.by_id, |payments| {
                read::payment_member(payments, &frame.key, value, "snapshot.payments.by_id")
            }),
            Role::Records => feed(&mut self.records, |records| {
                records.push_back(journal::record_at(value, i, &mut self.calls)?);
                Ok(())
            }),
            Role::Spans => feed(&mut self.spans, |spans| {
                spans.push_back(journal::span_at(value, i, &mut self.calls)?);
                Ok(())
            }),
        }
    }

    /// A record or span as `render` writes it, read straight from the
    /// text (`read_back`); whether it was, else the reader has not moved
    /// and the row is read as a tree.
    fn written(&mut self, role: Role, r: &mut Reader) -> bool {
        let Some(frame) = self.stack.last_mut() else {
            return false;
        };
        let read = match role {
            Role::Records => {
                read_back::record(r.text(), r.at, &mut self.calls).map(|(entry, end)| {
                    if let Some(Ok(records)) = &mut self.records {
                        records.push_back(entry);
                    }
                    end
                })
            }
            _ => read_back::span(r.text(), r.at, &mut self.calls).map(|(span, end)| {
                if let Some(Ok(spans)) = &mut self.spans {
                    spans.push_back(span);
                }
                end
            }),
        };
        let Some(end) = read else {
            return false;
        };
        frame.items += 1;
        r.at = end;
        true
    }

    /// A comma, or the container's end.
    fn after(&mut self, r: &mut Reader, done: bool, role: Role) -> Result<(), Stop> {
        let (close, eof, expected) = if role.is_array() {
            (b']', "EOF while parsing a list", "expected `,` or `]`")
        } else {
            (b'}', "EOF while parsing an object", "expected `,` or `}`")
        };
        match byte(r, done)? {
            Some(b',') => {
                r.at += 1;
                self.set(Place::Next { first: false });
                Ok(())
            }
            Some(b) if b == close => {
                r.at += 1;
                self.close()
            }
            None => Err(r.fail(eof).into()),
            Some(_) => Err(r.fail(expected).into()),
        }
    }

    /// Ends the container on top: its members go to its parent.
    fn close(&mut self) -> Result<(), Stop> {
        let Some(frame) = self.stack.pop() else {
            return Ok(());
        };
        let member = match frame.role {
            Role::Top => {
                self.top = Some(frame.members);
                return Ok(());
            }
            Role::Orders | Role::Payments | Role::Journal => Member::Open(frame.members),
            Role::Live
            | Role::Deleted
            | Role::Made
            | Role::ById
            | Role::Attempts
            | Role::Records
            | Role::Spans => Member::Listed {
                array: frame.role.is_array(),
            },
        };
        if let Some(parent) = self.stack.last_mut() {
            let key = core::mem::take(&mut parent.key);
            parent.members.push((key, member));
        }
        Ok(())
    }

    /// Waits until the value that starts at the reader (after any space)
    /// is complete in the text; with `done`, the reader's own errors say
    /// what is missing.
    fn complete(&mut self, r: &mut Reader, done: bool) -> Result<(), Stop> {
        r.skip_space();
        if done {
            return Ok(());
        }
        let bytes = r.text().as_bytes();
        let mut scan = match self.scan.take() {
            Some(scan) => scan,
            None => Scan {
                at: r.at,
                ..Scan::default()
            },
        };
        if scan_value(bytes, &mut scan) {
            return Ok(());
        }
        self.scan = Some(scan);
        Err(More.into())
    }

    /// A long list opens: its elements are read into a table of its own.
    fn begin(&mut self, list: Role) {
        match list {
            Role::Live => self.orders.live = Some(Ok(Orders::default())),
            Role::Deleted => self.orders.deleted = Some(Ok(Orders::default())),
            Role::Made => self.orders.made = Some(Ok(Orders::default())),
            Role::ById => self.by_id = Some(Ok(Payments::default())),
            Role::Attempts => self.attempts = Some(Ok(Payments::default())),
            Role::Records => self.records = Some(Ok(VecDeque::new())),
            Role::Spans => self.spans = Some(Ok(VecDeque::new())),
            Role::Top | Role::Orders | Role::Payments | Role::Journal => {}
        }
    }
}

/// The next byte after any space, or `More` when the text so far ends.
fn byte(r: &mut Reader, done: bool) -> Result<Option<u8>, Stop> {
    match r.peek() {
        None if !done => Err(More.into()),
        found => Ok(found),
    }
}

/// After the snapshot object: only space.
fn trailing(r: &mut Reader) -> Result<(), Stop> {
    match r.peek() {
        None => Ok(()),
        Some(_) => Err(r.fail("trailing characters").into()),
    }
}

/// Scans on from `scan.at` for the end of one JSON value (a string, a
/// container with its strings, or a word or number, which ends at the
/// first byte that cannot continue it); whether it ends within `bytes`.
fn scan_value(bytes: &[u8], scan: &mut Scan) -> bool {
    if scan.kind == Kind::Unknown {
        scan.kind = match bytes.get(scan.at) {
            None => return false,
            Some(b'"') => Kind::Text,
            Some(b'{' | b'[') => Kind::Nested,
            Some(_) => Kind::Word,
        };
        if scan.kind != Kind::Word {
            scan.at += 1;
            scan.depth = 1;
        }
    }
    match scan.kind {
        Kind::Word => word_ends(bytes, scan),
        Kind::Text => string_ends(bytes, scan),
        Kind::Nested | Kind::Unknown => container_ends(bytes, scan),
    }
}

/// Whether a word or number ends within `bytes`.
fn word_ends(bytes: &[u8], scan: &mut Scan) -> bool {
    while let Some(&c) = bytes.get(scan.at) {
        if !(c.is_ascii_alphanumeric() || matches!(c, b'+' | b'-' | b'.')) {
            return true;
        }
        scan.at += 1;
    }
    false
}

/// Whether a string, its opening quote read, ends within `bytes`.
fn string_ends(bytes: &[u8], scan: &mut Scan) -> bool {
    while let Some(&b) = bytes.get(scan.at) {
        scan.at += 1;
        if scan.escaped {
            scan.escaped = false;
        } else if b == b'\\' {
            scan.escaped = true;
        } else if b == b'"' {
            return true;
        }
    }
    false
}

/// Whether an object or array, its opening bracket read, ends within
/// `bytes`: brackets counted outside its strings.
fn container_ends(bytes: &[u8], scan: &mut Scan) -> bool {
    while let Some(&b) = bytes.get(scan.at) {
        scan.at += 1;
        if scan.in_string {
            if scan.escaped {
                scan.escaped = false;
            } else if b == b'\\' {
                scan.escaped = true;
            } else if b == b'"' {
                scan.in_string = false;
            }
            continue;
        }
        match b {
            b'"' => scan.in_string = true,
            b'{' | b'[' => scan.depth += 1,
            b'}' | b']' => {
                scan.depth -= 1;
                if scan.depth == 0 {
                    return true;
                }
            }
            _ => {}
        }
    }
    false
}

/// The small tree `read_tree` reads: each noted member parsed again from
/// its place, each long list an empty placeholder.
/// `depth` is the container's, as the reader counts it (1 for the
/// snapshot object).
fn tree_of(
    text: &str,
    members: Vec<(String, Member)>,
    depth: usize,
) -> Result<Json<'_>, ReadError> {
    let mut out = Vec::with_capacity(members.len());
    for (key, member) in members {
        let value = match member {
            Member::Text(at) => Reader::at_offset(text, at).value(depth)?,
            Member::Open(inner) => tree_of(text, inner, depth + 1)?,
            Member::Listed { array: true } => Json::Arr(Vec::new()),
            Member::Listed { array: false } => Json::Obj(Vec::new()),
        };
        out.push((key.into(), value));
    }
    Ok(Json::Obj(out))
}

/// One more row into a list read as the text comes: the first refusal
/// replaces the list, and later rows are not read.
fn feed<T, E>(list: &mut Option<Result<T, E>>, read: impl FnOnce(&mut T) -> Result<(), E>) {
    if let Some(Ok(items)) = list {
        if let Err(e) = read(items) {
            *list = Some(Err(e));
        }
    }
}
