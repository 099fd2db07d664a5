//! Webhook endpoints: where events are delivered (a URL, or a handler the
//! JS layer holds), the secret their deliveries are signed with, the event
//! types each wants, and the name of the signature header. Registering
//! one turns webhooks on. The core keeps them; signing and sending stay in
//! JS, which asks the core what is due (`delivery`).

use crate::prelude::*;

use super::transition::EventType;

/// At most this many endpoints at once.
pub const MAX_ENDPOINTS: usize = 100;
pub const ENDPOINT_PREFIX: &str = "we_";

/// The header the signature goes in: the service's own name, or
/// Stripe's, so Stripe's libraries verify deliveries as they are.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SignatureHeader {
    #[default]
    Orderpay,
    Stripe,
}

impl SignatureHeader {
    pub const NAMES: [&'static str; 2] = ["Orderpay-Signature", "Stripe-Signature"];

    pub fn as_str(self) -> &'static str {
        match self {
            SignatureHeader::Orderpay => "Orderpay-Signature",
            SignatureHeader::Stripe => "Stripe-Signature",
        }
    }

    /// Exactly as `as_str` writes it.
    pub fn parse(text: &str) -> Option<SignatureHeader> {
        [SignatureHeader::Orderpay, SignatureHeader::Stripe]
            .into_iter()
            .find(|h| h.as_str() == text)
    }
}

/// One endpoint. `url` is `None` for a handler held by the JS layer.
#[derive(Debug, Clone, PartialEq)]
pub struct Endpoint {
    /// Its number: the id is `we_<n>`, from 1, never issued twice.
    pub n: u64,
    pub url: Option<String>,
    pub secret: String,
    /// The types it wants; `None` is every type (`["*"]`).
    pub events: Option<Vec<EventType>>,
    pub header: SignatureHeader,
}

impl Endpoint {
    pub fn id(&self) -> String {
        Endpoint::id_of(self.n)
    }

    /// The id of endpoint number `n`: `we_<n>`.
    pub fn id_of(n: u64) -> String {
        let mut id = String::from(ENDPOINT_PREFIX);
        crate::json::write::push_uint(&mut id, n);
        id
    }

    /// Whether it wants events of type `kind`.
    pub fn wants(&self, kind: EventType) -> bool {
        self.events
            .as_ref()
            .is_none_or(|types| types.contains(&kind))
    }
}

/// The endpoints, in the order they were registered.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Endpoints {
    pub(crate) list: Vec<Endpoint>,
    /// The number of the last endpoint made (0: none yet).
    pub(crate) last: u64,
}

impl Endpoints {
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    pub fn len(&self) -> usize {
        self.list.len()
    }

    pub fn iter(&self) -> impl Iterator<Item = &Endpoint> + '_ {
        self.list.iter()
    }

    /// The endpoint numbered `n`.
    pub fn get(&self, n: u64) -> Option<&Endpoint> {
        self.list.iter().find(|e| e.n == n)
    }

    /// The number the next endpoint gets.
    pub fn next_number(&self) -> u64 {
        self.last + 1
    }

    /// Keeps `endpoint` (numbered by `next_number`).
    pub fn add(&mut self, endpoint: Endpoint) {
        self.last = self.last.max(endpoint.n);
        self.list.push(endpoint);
    }

    /// Removes the endpoint numbered `n`; whether there was one.
    pub fn remove(&mut self, n: u64) -> bool {
        let before = self.list.len();
        self.list.retain(|e| e.n != n);
        self.list.len() != before
    }
}

/// The number of an id `we_<n>`.
pub fn endpoint_number(id: &str) -> Option<u64> {
    number_of(ENDPOINT_PREFIX, id)
}

/// The number of an id `<prefix><n>`: digits only, no leading zero.
pub fn number_of(prefix: &str, id: &str) -> Option<u64> {
    let digits = id.strip_prefix(prefix)?;
    let plain = !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit());
    if !plain || digits.starts_with('0') {
        return None;
    }
    digits.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_read_back_and_nothing_else_does() {
        assert_eq!(endpoint_number("we_1"), Some(1));
        assert_eq!(endpoint_number("we_120"), Some(120));
        for bad in ["we_", "we_0", "we_01", "we_1x", "wd_1", "", "we_-1"] {
            assert_eq!(endpoint_number(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn an_endpoint_wants_its_types_or_every_type() {
        let mut e = Endpoint {
            n: 1,
            url: None,
            secret: String::new(),
            events: None,
            header: SignatureHeader::default(),
        };
        assert!(EventType::ALL.into_iter().all(|t| e.wants(t)));
        e.events = Some(vec![EventType::OrderPaid]);
        assert!(e.wants(EventType::OrderPaid));
        assert!(!e.wants(EventType::OrderCreated));
        assert_eq!(e.id(), "we_1");
    }
}
