//! What handling a request did (`Work`) and the parts of the request the
//! services read (`Request`): handed from the flow to the dispatch and on
//! to the records, so they stand below all three.

use crate::prelude::*;

use super::super::body::Body;
use super::super::envelope::Page;
use super::super::error::ApiError;
use super::super::request::{Headers, Target, Text};
use super::super::route::Route;
use crate::domain::code::Code;
use crate::json::flat::Flat;
use crate::observe::EventClass;
use crate::sim::scenario::Fault;
use crate::sim::third_party::Verdict;

/// What handling a request did: who served it, for how long, and what the
/// third party did inside it, as the service record and the spans report.
#[derive(Default)]
pub(super) struct Work {
    pub(super) served_by: Option<EventClass>,
    pub(super) duration: u64,
    /// The third-party call: when it started (ms after the request
    /// arrived), how long it took, and what it decided.
    pub(super) third_party: Option<(u64, u64, Verdict)>,
    /// The failure a scenario gave the request, if a rule fired.
    /// Boxed: requests with none carry a pointer, not a failure's room.
    pub(super) fault: Option<Box<Fault>>,
    /// Whether a scenario was in force for it (a drawn decline then
    /// reports `generic_decline`).
    pub(super) under_scenario: bool,
    /// The page a refusal answers instead of its envelope, with the
    /// refusal's status: a browser's answer to a challenge already over.
    pub(super) shown: Option<Box<Page>>,
    /// The payment a pay kept with a plan, until the records say where
    /// in the pay's trace its changes go (see `records::anchor`).
    pub(super) planned: Option<Code>,
}

/// The parts of a request the services read, all parsed; a body already
/// parsed for a scenario's rules is not parsed again.
pub(super) struct Request<'r> {
    pub(super) target: &'r Target,
    pub(super) headers: Headers,
    pub(super) body: Option<&'r Text>,
    pub(super) parsed: Option<Result<Body<'r, 'r>, ApiError>>,
}

impl<'r> Request<'r> {
    /// A create's or a payment's body, parsed into `room` before the
    /// service runs: for a scenario's rules, then the service.
    pub(super) fn parse_for_rules(&mut self, route: &Route, room: &'r mut Option<Flat<'r>>) {
        if matches!(route, Route::CreateOrder | Route::Pay) {
            let room = room.insert(Flat::new());
            self.parsed = Some(Body::parse(self.body, &self.headers, room));
        }
    }

    /// The body, parsed (`Body::parse`) into `room` unless it already is.
    pub(super) fn body<'s>(&'s mut self, room: &'s mut Flat<'r>) -> Result<Body<'s, 'r>, ApiError> {
        match self.parsed.take() {
            Some(parsed) => parsed,
            None => Body::parse(self.body, &self.headers, room),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn target() -> Target {
        Target::take(Text::Given("/api/order/create".into()))
            .unwrap_or_else(|_| panic!("a plain path parses"))
    }

    #[test]
    fn a_body_parsed_for_the_rules_is_the_one_the_service_reads() {
        let target = target();
        let given = Text::Given("{\"userId\":\"u\"".into());
        let headers = Headers::parse(Vec::new()).unwrap_or_else(|e| panic!("{e:?}"));
        let mut request = Request {
            target: &target,
            headers,
            body: Some(&given),
            parsed: None,
        };
        let mut room = None;
        request.parse_for_rules(&Route::CreateOrder, &mut room);
        let first = request.parsed.as_ref().map(Result::is_err);
        assert_eq!(first, Some(true), "the truncated body is refused once");
        // Read again, it is the same result, taken rather than parsed anew.
        let mut spare = Flat::new();
        assert!(request.body(&mut spare).is_err());
        assert!(request.parsed.is_none());
    }

    #[test]
    fn only_a_create_or_a_payment_is_parsed_for_the_rules() {
        let target = target();
        let headers = Headers::parse(Vec::new()).unwrap_or_else(|e| panic!("{e:?}"));
        let mut request = Request {
            target: &target,
            headers,
            body: None,
            parsed: None,
        };
        let mut room = None;
        request.parse_for_rules(&Route::Refund("p"), &mut room);
        assert!(request.parsed.is_none());
    }
}
