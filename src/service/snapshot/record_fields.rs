//! The members of a log record and the attributes of a span, read back
//! from a snapshot and refused naming the member or attribute: one set of
//! readers for the journal's records and spans (`journal.rs`) and a
//! webhook attempt's (`attempt_record.rs`), whose refusals the journal
//! places (`journal_error`).

use crate::prelude::*;

use crate::json::message::msg;
use crate::json::Json;

use super::fields::{expected, missing_field, Ticked};

pub(super) type Read<T> = Result<T, String>;

/// Member `name`, or the refusal naming it as missing.
pub(super) fn field<'j, 'a>(o: &'j Json<'a>, name: &str) -> Read<&'j Json<'a>> {
    o.get(name).ok_or_else(|| missing_field(name).text())
}

/// `` `name`: expected … ``: the refusals name the member alone.
pub(super) fn expected_at(name: &str, what: &str) -> String {
    expected(&Ticked(name), what).msg
}

pub(super) fn text<'j>(o: &'j Json<'_>, name: &str) -> Read<&'j str> {
    field(o, name)?
        .as_str()
        .ok_or_else(|| expected_at(name, "a string"))
}

pub(super) fn uint(o: &Json<'_>, name: &str) -> Read<u64> {
    field(o, name)?
        .as_u64()
        .ok_or_else(|| expected_at(name, "a whole number"))
}

pub(super) fn int(o: &Json<'_>, name: &str) -> Read<i64> {
    field(o, name)?
        .as_i64()
        .ok_or_else(|| expected_at(name, "an integer"))
}

/// Member `name` read by `read_it`, or none when absent or null.
pub(super) fn optional<'j, 'a, T>(
    o: &'j Json<'a>,
    name: &str,
    read_it: impl Fn(&'j Json<'a>, &str) -> Read<T>,
) -> Read<Option<T>> {
    match o.get(name) {
        None | Some(Json::Null) => Ok(None),
        Some(_) => read_it(o, name).map(Some),
    }
}

/// A span's attribute by key: `[[key, value], ...]`.
pub(super) fn attribute<'j, 'a>(o: &'j Json<'a>, key: &str) -> Option<&'j Json<'a>> {
    o.get("attributes")?
        .as_array()?
        .iter()
        .filter_map(|pair| pair.as_array())
        .find(|pair| pair.first().and_then(Json::as_str) == Some(key))
        .and_then(|pair| pair.get(1))
}

pub(super) fn attr_text<'j>(o: &'j Json<'_>, key: &str) -> Read<&'j str> {
    attribute(o, key)
        .and_then(Json::as_str)
        .ok_or_else(|| msg!("span attribute `", key, "`: expected a string"))
}

pub(super) fn attr_int<T: TryFrom<i64>>(o: &Json<'_>, key: &str) -> Read<T> {
    attribute(o, key)
        .and_then(Json::as_i64)
        .and_then(|n| T::try_from(n).ok())
        .ok_or_else(|| msg!("span attribute `", key, "`: expected an integer"))
}
