//! Scenarios: an ordered list of rules that say which requests fail, and
//! how, and which webhook deliveries go wrong (see docs/scenarios.md).
//! This layer reads the document, matches a request's or an event's facts
//! against it and keeps the counts; the gateway applies what fires on a
//! request, the core's delivery what fires on an event.
//!
//! - [`document`]: the document, checked;
//! - [`delivery`]: the delivery kinds and a reorder's order; `delivery_read`
//!   reads them;
//! - [`parse`], `when`, `async_kinds` and [`reading`]: reading it, refused naming a path;
//! - [`matching`]: whether a rule matches a request's or an event's facts;
//! - [`progress`]: seen and fired counts, when it was set, its own stream;
//! - [`presets`]: the names of the common stories' documents;
//! - `writing`: the document and its progress as JSON text;
//! - `saved`: a scenario in a snapshot.

mod async_kinds;
pub mod delivery;
mod delivery_read;
pub mod document;
pub mod matching;
pub mod parse;
pub mod presets;
pub mod progress;
pub mod reading;
mod saved;
mod when;
mod writing;

use crate::prelude::*;

use alloc::rc::Rc;

pub use delivery::{shuffled, Delivery, DeliveryFault, Order};
pub use document::{Document, Outcome, Phase, Rule, Then, Words};
pub use matching::{EventFacts, Facts, Fields};
pub use progress::Progress;
pub use reading::Refusal;

use crate::json::message::Msg;
use crate::sim::invalid::InvalidKind;

/// A scenario in force: its document and where it stands.
#[derive(Debug, Clone, PartialEq)]
pub struct Scenario {
    /// Shared: a snapshot's copy of the service copies no rule.
    pub doc: Rc<Document>,
    /// The document's text as given: what the `scenario` read and
    /// snapshots show.
    pub text: String,
    pub progress: Progress,
}

/// The failure a request met: the rule that fired (by name) and its
/// `then`. A drawn decline while a scenario is set is reported as one
/// with no rule (`generic_decline`).
#[derive(Debug, Clone, PartialEq)]
pub struct Fault {
    pub rule: Option<Rc<str>>,
    pub then: Then,
}

impl Fault {
    /// A drawn decline while a scenario is set: reported as a decline
    /// with no rule, code `generic_decline`.
    pub fn drawn_decline() -> Fault {
        Fault {
            rule: None,
            then: Then::Decline {
                code: "generic_decline",
            },
        }
    }

    /// A network fault's name and phase, if it is one.
    pub fn network(&self) -> Option<(&'static str, Phase)> {
        match self.then {
            Then::Network { fault, phase, .. } => Some((fault, phase)),
            _ => None,
        }
    }
}

impl Scenario {
    /// A scenario from a document's JSON text, set at
    /// `now` with its stream from `seed`.
    pub fn read(text: &str, words: Words, seed: u64, now: i64) -> Result<Scenario, Box<Refusal>> {
        let (doc, text) = read_document(text, words)?;
        let progress = Progress::start(&doc, seed, now);
        Ok(Scenario {
            doc: Rc::new(doc),
            text: text.to_owned(),
            progress,
        })
    }

    /// The rule that fires for the request `facts` describes at `now`,
    /// counting its match and its firing.
    pub fn decide(&mut self, facts: &Facts, now: i64) -> Option<Fault> {
        let doc = &self.doc;
        let rule = self
            .progress
            .fire(doc, now, |r| matching::matches(r, facts))?;
        let r = doc.rules.get(rule)?;
        Some(Fault {
            rule: Some(Rc::from(r.name.as_str())),
            then: r.then,
        })
    }

    /// The delivery rule that fires for the delivery of the event `facts`
    /// describes to one endpoint, at `now` (the event's time), counting
    /// its match and its firing as `decide` does; a `reorder` by shuffle
    /// gets its seed from the scenario's stream. Request rules never fire
    /// here, nor delivery rules in `decide`.
    pub fn decide_delivery(&mut self, facts: &EventFacts, now: i64) -> Option<DeliveryFault> {
        let doc = &self.doc;
        let rule = self
            .progress
            .fire(doc, now, |r| matching::matches_event(r, facts))?;
        let r = doc.rules.get(rule)?;
        let Then::Delivery(mut kind) = r.then else {
            return None;
        };
        if let Delivery::Reorder {
            order: Order::Shuffle { seed },
            ..
        } = &mut kind
        {
            *seed = self.progress.rng.next_u64() >> 11;
        }
        Some(DeliveryFault {
            rule: Rc::from(r.name.as_str()),
            kind,
        })
    }

    /// Whether any rule acts on deliveries: the core asks before it builds
    /// an event's facts.
    pub fn has_delivery_rules(&self) -> bool {
        self.doc
            .rules
            .iter()
            .any(|r| matches!(r.then, Then::Delivery(_)))
    }
}

/// A document's JSON text, read into a document; with its text. A
/// preset's name reaches the module as its document's text (see
/// [`presets`]), so any other text is refused, listing the presets' names.
pub fn read_document(text: &str, words: Words) -> Result<(Document, &str), Box<Refusal>> {
    let trimmed = text.trim_start();
    if trimmed.starts_with('{') || trimmed.starts_with('[') {
        return Ok((parse::parse(text, words)?, text));
    }
    let mut m = Msg::new("expected a document's JSON text or a preset's name (");
    for (i, name) in presets::NAMES.iter().enumerate() {
        m.s(if i == 0 { "" } else { ", " }).s(name);
    }
    m.s("), got ").q(text);
    Err(Box::new(Refusal {
        kind: InvalidKind::WrongType,
        at: String::new(),
        problem: m.text(),
    }))
}
