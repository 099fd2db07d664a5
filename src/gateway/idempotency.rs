//! `Idempotency-Key`, with Stripe's semantics: the answers kept by key,
//! each with the fingerprint of the request that made it (method, path,
//! body). A retry with the same key and the same request is answered
//! with the kept answer and runs nothing; the same key with another
//! request is refused. Keys live 24 hours of the service's clock after
//! first use, and there are at most `idempotencyKeys` of them: past the
//! bound a new key is refused, never an old one dropped, because a key
//! dropped early lets a retry pay twice.

use crate::prelude::*;

use alloc::rc::Rc;

use super::envelope::{Data, Envelope};
use super::error::ApiError;
use crate::domain::Rejection;
use crate::json::message::{msg, Q};
use crate::json::Out;
use crate::observe::LogStatus;

/// The request header, as headers are looked up (any case).
pub const HEADER: &str = "idempotency-key";
/// The longest key, as Stripe's.
pub const MAX_KEY_CHARS: usize = 255;
/// How long a key is kept after its first use: 24 hours of the service's
/// clock (a virtual clock's included).
pub const KEPT_FOR_MS: i64 = 24 * 60 * 60 * 1000;

/// What a key was first used with. The body is kept as a 64-bit hash of
/// its bytes: a retry sends the same bytes, and a key need not hold a
/// copy of a body of up to 1 MiB.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fingerprint {
    pub method: String,
    pub path: String,
    pub body: u64,
}

impl Fingerprint {
    pub fn of(method: &str, path: &str, body: Option<&str>) -> Fingerprint {
        Fingerprint {
            method: method.to_owned(),
            path: path.to_owned(),
            body: body_hash(body.unwrap_or_default()),
        }
    }

    /// What differs from `first`, for the refusal's msg; `None` when
    /// nothing does.
    fn differs(&self, first: &Fingerprint) -> Option<String> {
        if self.method != first.method {
            return Some(msg!("method ", &first.method, ", not ", &self.method));
        }
        if self.path != first.path {
            return Some(msg!("path ", &first.path, ", not ", &self.path));
        }
        (self.body != first.body).then(|| "another body".to_owned())
    }
}

/// FNV-1a over the body's bytes: fixed, so a snapshot's hashes read back
/// the same in any build.
pub fn body_hash(body: &str) -> u64 {
    body.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// An answer kept under a key: its status and envelope, the envelope's
/// data as the JSON text it was sent as (replayed as it was then, never
/// read again).
#[derive(Debug, Clone, PartialEq)]
pub struct KeptAnswer {
    pub fingerprint: Fingerprint,
    /// When the key was first used, on the service's clock (epoch ms).
    pub first_used: i64,
    pub status: u16,
    pub code: i32,
    pub msg: String,
    pub data: Option<Rc<str>>,
}

impl KeptAnswer {
    /// The log status a replay reports: the kept answer's own. Only 2xx
    /// answers are kept, and among those the third party's decline alone
    /// is a `server_error` (as `ApiError::log_status` says).
    fn log_status(&self) -> LogStatus {
        if self.code != 0 && self.msg == Rejection::ThirdPartyFailed.msg() {
            LogStatus::ServerError
        } else {
            LogStatus::Success
        }
    }

    /// What a replay of it answers.
    fn replay(&self) -> Replay {
        Replay {
            status: self.status,
            log_status: self.log_status(),
            body: Envelope {
                code: self.code,
                msg: self.msg.clone(),
                data: self.data.clone().map(Data::Kept),
            },
        }
    }

    fn expired(&self, now: i64) -> bool {
        now >= self.first_used.saturating_add(KEPT_FOR_MS)
    }
}

/// A keyed request that runs: where its answer goes once it is made.
#[derive(Debug, Clone)]
pub struct Pending {
    key: String,
    fingerprint: Fingerprint,
    first_used: i64,
    /// `idempotencyKeys`: past it, expired keys make room when this is kept.
    bound: usize,
}

/// The answer to a request that repeats a kept one.
#[derive(Debug)]
pub struct Replay {
    pub status: u16,
    pub log_status: LogStatus,
    pub body: Envelope,
}

/// What a keyed request meets.
#[derive(Debug)]
pub enum Lookup {
    /// A new key (or one expired): the request runs.
    Run(Pending),
    /// The same request again: answered with what was kept.
    Replay(Replay),
}

/// The kept answers, sorted by key: a sorted list of boxes is a few
/// hundred bytes of code where a `BTreeMap` is kilobytes of the module,
/// and at 10,000 keys an insertion moves 40 KB of pointers.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct IdempotencyKeys {
    // Boxed, so that an insertion moves a pointer per key, not an entry.
    #[allow(clippy::vec_box)]
    by_key: Vec<Box<(String, KeptAnswer)>>,
}

impl IdempotencyKeys {
    pub fn len(&self) -> usize {
        self.by_key.len()
    }

    pub fn is_empty(&self) -> bool {
        self.by_key.is_empty()
    }

    /// The keys and their answers, in key order (as snapshots list them).
    pub fn iter(&self) -> impl Iterator<Item = (&String, &KeptAnswer)> {
        self.by_key.iter().map(|entry| (&entry.0, &entry.1))
    }

    /// How many keys have not expired at `now`.
    fn live(&self, now: i64) -> usize {
        self.by_key
            .iter()
            .filter(|entry| !entry.1.expired(now))
            .count()
    }

    /// Where `key` is, or would go.
    fn find(&self, key: &str) -> Result<usize, usize> {
        self.by_key
            .binary_search_by(|entry| entry.0.as_str().cmp(key))
    }

    /// Adds a key read from a snapshot; false when it was there already.
    pub fn insert(&mut self, key: String, answer: KeptAnswer) -> bool {
        match self.find(&key) {
            Ok(_) => false,
            Err(at) => {
                self.by_key.insert(at, Box::new((key, answer)));
                true
            }
        }
    }

    /// What a request with `key` meets at `now`: a replay, a run, or a
    /// refusal (another request under the key: 400; no room: 507).
    /// Changes nothing: an expired key is dropped only when an answer is
    /// kept, so a request refused later leaves the keys as they were.
    pub fn look_up(
        &self,
        key: &str,
        fingerprint: Fingerprint,
        now: i64,
        bound: usize,
    ) -> Result<Lookup, ApiError> {
        check_key(key)?;
        if let Ok(at) = self.find(key) {
            let kept = self.by_key.get(at).map(|entry| &entry.1);
            match kept {
                Some(kept) if !kept.expired(now) => {
                    if let Some(what) = fingerprint.differs(&kept.fingerprint) {
                        let problem = msg!(
                            Q(key),
                            " was first used with ",
                            what,
                            "; use a new key for another request"
                        );
                        return Err(ApiError::bad("Idempotency-Key", problem));
                    }
                    return Ok(Lookup::Replay(kept.replay()));
                }
                _ => {}
            }
        }
        if self.by_key.len() >= bound && self.live(now) >= bound {
            return Err(ApiError::IdempotencyKeysFull { limit: bound });
        }
        Ok(Lookup::Run(Pending {
            key: key.to_owned(),
            fingerprint,
            first_used: now,
            bound,
        }))
    }

    /// Keeps the answer of a request that ran, when `worth_keeping` says so.
    #[inline(never)]
    pub fn keep(&mut self, pending: Pending, status: u16, body: &Envelope, outcome_unknown: bool) {
        if !worth_keeping(status, outcome_unknown) {
            return;
        }
        let data = body.data.as_ref().map(|data| {
            let mut out = Out::with_capacity(256);
            data.write(&mut out);
            Rc::from(out.text)
        });
        let kept = KeptAnswer {
            fingerprint: pending.fingerprint,
            first_used: pending.first_used,
            status,
            code: body.code,
            msg: body.msg.clone(),
            data,
        };
        if self.by_key.len() >= pending.bound {
            let now = pending.first_used;
            self.by_key.retain(|entry| !entry.1.expired(now));
        }
        match self.find(&pending.key) {
            Ok(at) => {
                if let Some(entry) = self.by_key.get_mut(at) {
                    entry.1 = kept;
                }
            }
            Err(at) => self.by_key.insert(at, Box::new((pending.key, kept))),
        }
    }
}

/// Whether an answer is kept under its key: one the service ran to the
/// end (2xx: a success or a business answer, a decline included). Not a
/// 4xx (nothing ran; fix the request and retry with the key), nor a 5xx
/// the gateway gave before running anything, nor an answer whose outcome
/// was unknown (the third party timed out or failed: a retry with the
/// key runs again, where Stripe would replay its 500).
pub fn worth_keeping(status: u16, outcome_unknown: bool) -> bool {
    !outcome_unknown && (200..300).contains(&status)
}

/// A key is 1 to 255 printable ASCII characters (0x20 to 0x7E).
pub fn check_key(key: &str) -> Result<(), ApiError> {
    let problem = if key.is_empty() {
        "must be 1 to 255 printable ASCII characters, got an empty key".to_owned()
    } else if let Some((at, c)) = key.char_indices().find(|(_, c)| !(' '..='~').contains(c)) {
        let what = if c.is_ascii() {
            "a control character"
        } else {
            "a non-ASCII character"
        };
        msg!(
            "must be printable ASCII characters (0x20 to 0x7E), got ",
            what,
            " at byte ",
            at
        )
    } else if key.len() > MAX_KEY_CHARS {
        msg!("must be at most 255 characters, got ", key.len())
    } else {
        return Ok(());
    };
    Err(ApiError::bad("Idempotency-Key", problem))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn print(method: &str, path: &str, body: &str) -> Fingerprint {
        Fingerprint::of(method, path, Some(body))
    }

    #[test]
    fn success_and_business_answers_are_kept_and_nothing_else() {
        assert!(worth_keeping(200, false));
        for status in [400, 404, 405, 413, 415, 429, 500, 502, 503, 507] {
            assert!(!worth_keeping(status, false), "{status}");
        }
        assert!(
            !worth_keeping(200, true),
            "an unknown outcome is never kept"
        );
    }

    #[test]
    fn a_mismatch_names_what_differs() {
        let first = print("POST", "/api/payment/pay", "{}");
        assert_eq!(
            print("POST", "/api/payment/pay", "{}").differs(&first),
            None
        );
        let method = print("PUT", "/api/payment/pay", "{}").differs(&first);
        assert_eq!(method.as_deref(), Some("method POST, not PUT"));
        let path = print("POST", "/api/order/create", "{}").differs(&first);
        assert_eq!(
            path.as_deref(),
            Some("path /api/payment/pay, not /api/order/create")
        );
        let body = print("POST", "/api/payment/pay", "{ }").differs(&first);
        assert_eq!(body.as_deref(), Some("another body"));
    }

    #[test]
    fn keys_are_printable_ascii_of_1_to_255() {
        assert!(check_key("a").is_ok());
        assert!(check_key(&"~".repeat(255)).is_ok());
        assert!(check_key(" x ").is_ok());
        for bad in ["", "a\tb", "\u{7f}", "é", &"k".repeat(256)] {
            let error = check_key(bad).err().map(|e| e.msg());
            assert!(
                error.is_some_and(|m| m.starts_with("Idempotency-Key: ")),
                "{bad:?}"
            );
        }
    }
}
