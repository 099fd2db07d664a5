//! Trace ids: taken from `X-B3-TraceId` when it is a valid B3 id, made
//! fresh otherwise, so every request can be followed through the log.

use crate::random::Rng;

/// A B3 trace id is 16 or 32 lower-case hex digits, and not all zeros.
pub fn parse_b3(text: &str) -> Option<String> {
    let valid = matches!(text.len(), 16 | 32)
        && text
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
        && text.bytes().any(|b| b != b'0');
    valid.then(|| text.to_owned())
}

/// A fresh 128-bit trace id, as 32 lower-case hex digits.
pub fn fresh(rng: &mut Rng) -> String {
    let mut high = rng.next_u64();
    if high == 0 {
        high = 1;
    }
    format!("{high:016x}{:016x}", rng.next_u64())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn valid_b3_ids_are_taken_as_they_are() {
        assert_eq!(
            parse_b3("463ac35c9f6413ad").as_deref(),
            Some("463ac35c9f6413ad")
        );
        let long = "463ac35c9f6413ad48485a3953bb6124";
        assert_eq!(parse_b3(long).as_deref(), Some(long));
    }

    #[test]
    fn invalid_b3_ids_are_refused() {
        for bad in [
            "",
            "463AC35C9F6413AD",
            "463ac35c9f6413a",
            "463ac35c9f6413adx",
            "0000000000000000",
            "463ac35c9f6413ad48485a3953bb612",
            "g63ac35c9f6413ad",
            "463ac35c9f6413ad ",
        ] {
            assert_eq!(parse_b3(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn fresh_ids_are_valid_b3_ids() {
        let mut rng = Rng::new(1);
        for _ in 0..100 {
            let id = fresh(&mut rng);
            assert_eq!(parse_b3(&id).as_deref(), Some(id.as_str()));
            assert_eq!(id.len(), 32);
        }
    }
}
