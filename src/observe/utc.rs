//! A record's time in ISO 8601, UTC, to the millisecond
//! (`2026-11-26T10:58:49.123Z`): the form JavaScript's `toISOString`
//! writes and log stores read as `@timestamp`. The core has no date
//! library, so the day number becomes a date by Howard Hinnant's
//! `civil_from_days`, exact over the whole `i64` range.

use crate::prelude::*;

use crate::json::write::push_uint;

const MS_PER_DAY: i64 = 86_400_000;

/// Appends `ms` (Unix time in milliseconds) as ISO 8601. Years 0 to 9999
/// take four digits; others a sign and at least six, as `toISOString`.
pub fn push_iso8601(out: &mut String, ms: i64) {
    let days = ms.div_euclid(MS_PER_DAY);
    let in_day = ms.rem_euclid(MS_PER_DAY).unsigned_abs();
    let (year, month, day) = civil_from_days(days);
    if (0..=9999).contains(&year) {
        padded(out, year.unsigned_abs(), 4);
    } else {
        out.push(if year < 0 { '-' } else { '+' });
        padded(out, year.unsigned_abs(), 6);
    }
    out.push('-');
    padded(out, month, 2);
    out.push('-');
    padded(out, day, 2);
    out.push('T');
    padded(out, in_day / 3_600_000, 2);
    out.push(':');
    padded(out, in_day / 60_000 % 60, 2);
    out.push(':');
    padded(out, in_day / 1000 % 60, 2);
    out.push('.');
    padded(out, in_day % 1000, 3);
    out.push('Z');
}

/// Year, month (1 to 12) and day (1 to 31) of the day `days` after
/// 1970-01-01, in the proleptic Gregorian calendar.
fn civil_from_days(days: i64) -> (i64, u64, u64) {
    // Days from 0000-03-01: a year then ends with February's leap day.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097); // day of the 400-year era, 0 to 146096
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100); // from March 1st
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month.unsigned_abs(), day.unsigned_abs())
}

/// `value` with leading zeros up to `width` digits.
fn padded(out: &mut String, value: u64, width: usize) {
    let mut digits = 1;
    let mut rest = value / 10;
    while rest > 0 {
        digits += 1;
        rest /= 10;
    }
    for _ in digits..width {
        out.push('0');
    }
    push_uint(out, value);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn iso(ms: i64) -> String {
        let mut s = String::new();
        push_iso8601(&mut s, ms);
        s
    }

    #[test]
    fn writes_what_to_iso_string_writes() {
        // Each pair checked against `new Date(ms).toISOString()` in Node.
        assert_eq!(iso(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(iso(1_700_000_000_123), "2023-11-14T22:13:20.123Z");
        assert_eq!(iso(951_782_400_000), "2000-02-29T00:00:00.000Z");
        assert_eq!(iso(-1), "1969-12-31T23:59:59.999Z");
        assert_eq!(iso(-62_167_219_200_000), "0000-01-01T00:00:00.000Z");
        assert_eq!(iso(-62_167_219_200_001), "-000001-12-31T23:59:59.999Z");
        assert_eq!(iso(253_402_300_800_000), "+010000-01-01T00:00:00.000Z");
        assert_eq!(iso(8_640_000_000_000_000), "+275760-09-13T00:00:00.000Z");
    }

    #[test]
    fn the_extremes_of_i64_do_not_overflow() {
        assert!(iso(i64::MAX).starts_with('+'));
        assert!(iso(i64::MIN).starts_with('-'));
        assert!(iso(i64::MAX).ends_with('Z'));
    }
}
