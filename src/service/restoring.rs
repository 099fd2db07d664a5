//! A restore in progress: a snapshot's text received in pieces split
//! anywhere and read as it comes (`snapshot::stream`), then checked, and
//! made into a new service.
//!
//! Nothing is replaced until `finish`, which makes a new service. The
//! work left once the last piece is in can also be done a step at a
//! time (`step`), so a caller that must not block (a page's main thread)
//! runs it between other work: no step reads or checks more than a
//! bounded share of the snapshot.

use crate::prelude::*;

use super::instance::Service;
use super::snapshot;
use super::snapshot::check::Checking;
use super::snapshot::stream::Reading;
use crate::sim::clock::Clock;
use crate::sim::invalid::Invalid;

/// A snapshot being received. Dropping it leaves nothing behind.
#[derive(Default)]
pub struct Restoring {
    text: String,
    reading: Reading,
    stage: Stage,
}

/// How far the work after the last piece has got.
#[derive(Default)]
enum Stage {
    /// Pieces may still come.
    #[default]
    Receiving,
    /// Read whole; the parts are being checked.
    Read(Box<snapshot::Parts>, Checking),
    /// Every check passed: the service is made next.
    Checked(Box<snapshot::Parts>),
    /// A step refused the snapshot: nothing more is done.
    Refused,
}

/// What a refused restore answers from then on.
fn over() -> Invalid {
    Invalid::wrong_type(
        "restore",
        "this restore is over (refused a damaged snapshot); start another",
    )
}

/// The module's memory cannot hold the snapshot's text.
fn no_room(field: &str) -> Invalid {
    Invalid::out_of_range(
        field,
        "no room in the module's memory for a snapshot this long",
    )
}

impl Restoring {
    pub fn new() -> Restoring {
        Restoring::default()
    }

    /// Room for a text of `bytes` at once, when its length is known: the
    /// pushes then never move the text received so far (copying tens of
    /// megabytes each time the room doubles is a long pause on a page).
    pub fn reserve(&mut self, bytes: usize) -> Result<(), Invalid> {
        let more = bytes.saturating_sub(self.text.len());
        self.text
            .try_reserve_exact(more)
            .map_err(|_| no_room("options.length"))
    }

    /// The next piece of the snapshot's text, pieces in order; their
    /// boundaries may fall anywhere. Reads every order, payment, record and
    /// span the piece completes. Text that is not JSON is refused here.
    pub fn push(&mut self, piece: &str) -> Result<(), Invalid> {
        match self.stage {
            Stage::Receiving => {}
            Stage::Refused => return Err(over()),
            Stage::Read(..) | Stage::Checked(_) => {
                return Err(Invalid::wrong_type(
                    "piece",
                    "the last piece is in (step has begun): no more may come",
                ))
            }
        }
        // A text past the module's memory is refused, not a trap.
        self.text
            .try_reserve(piece.len())
            .map_err(|_| no_room("piece"))?;
        self.text.push_str(piece);
        self.reading
            .read(&self.text, false)
            .map_err(snapshot::not_json)
    }

    /// One step of the work left once the last piece is in: the end of
    /// the reading, then the checks. Whether `finish` has only the service
    /// to make (then it does no more than that); refusals are those
    /// `finish` gives, in the same order. Pieces may not follow.
    pub fn step(&mut self) -> Result<bool, Invalid> {
        let stepped = self.next_step();
        if stepped.is_err() {
            self.stage = Stage::Refused;
            self.text = String::new();
        }
        stepped
    }

    fn next_step(&mut self) -> Result<bool, Invalid> {
        match core::mem::replace(&mut self.stage, Stage::Refused) {
            Stage::Refused => Err(over()),
            Stage::Receiving => {
                let parts = self.reading.finish(&self.text)?;
                self.text = String::new();
                self.stage = Stage::Read(Box::new(parts), Checking::default());
                Ok(false)
            }
            Stage::Read(parts, mut checking) => {
                let done = checking.step(&parts)?;
                self.stage = match done {
                    true => Stage::Checked(parts),
                    false => Stage::Read(parts, checking),
                };
                Ok(done)
            }
            checked @ Stage::Checked(_) => {
                self.stage = checked;
                Ok(true)
            }
        }
    }

    /// The service the pieces make, or the first bad field: what steps
    /// are left, then the service.
    pub fn finish(mut self, wall: Box<dyn Clock>) -> Result<Service, Invalid> {
        while !self.step()? {}
        match self.stage {
            Stage::Checked(parts) => Ok(Service::from_checked(*parts, wall)),
            Stage::Receiving | Stage::Read(..) | Stage::Refused => Err(over()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::clock::VirtualClock;
    use crate::{RawRequest, Service, Settings};

    fn snapshot() -> String {
        let clock = Box::new(VirtualClock::starting_at(1_700_000_000_000));
        let mut s = Service::new(Settings::with_seed(3), clock).unwrap_or_else(|e| panic!("{e}"));
        s.handle(RawRequest::new("GET", "/api/test/order/batch?count=300"));
        s.snapshot()
    }

    /// Pushes `text` in pieces of 1,000 bytes; how often the text moved.
    fn moves(restoring: &mut Restoring, text: &str) -> usize {
        let mut moved = 0;
        for piece in text.as_bytes().chunks(1000) {
            let before = restoring.text.as_ptr();
            let piece = core::str::from_utf8(piece).unwrap_or_else(|e| panic!("{e}"));
            restoring.push(piece).unwrap_or_else(|e| panic!("{e}"));
            moved += usize::from(restoring.text.as_ptr() != before);
        }
        moved
    }

    #[test]
    fn room_made_at_once_is_never_moved_by_a_push() {
        let text = snapshot();
        assert!(text.is_ascii() && text.len() > 100_000);
        let mut reserved = Restoring::new();
        reserved
            .reserve(text.len())
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(moves(&mut reserved, &text), 0);
        // Without it the room doubles as pieces come, moving the text.
        assert!(moves(&mut Restoring::new(), &text) > 3);
        let clock = Box::new(VirtualClock::starting_at(0));
        let restored = reserved.finish(clock).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(restored.snapshot(), text);
    }

    #[test]
    fn no_room_is_a_range_error_naming_the_option() {
        let mut restoring = Restoring::new();
        let refused = restoring.reserve(usize::MAX).err();
        let refused = refused.unwrap_or_else(|| panic!("usize::MAX bytes were reserved"));
        assert_eq!(refused.kind, crate::sim::invalid::InvalidKind::OutOfRange);
        assert_eq!(
            refused.msg,
            "options.length: no room in the module's memory for a snapshot this long"
        );
        restoring.push("{").unwrap_or_else(|e| panic!("{e}"));
    }
}
