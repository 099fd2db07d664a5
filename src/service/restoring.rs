//! A service restored from a snapshot handed over in pieces (as a page
//! reads it from storage or a file, a slice at a time). Nothing is
//! replaced until `finish`, which answers the restored service or, for a
//! damaged snapshot, the first bad field, exactly as `Service::restore`
//! does for the whole text.

use super::instance::Service;
use crate::sim::clock::Clock;
use crate::sim::invalid::Invalid;

/// A snapshot being received. Dropping it leaves nothing behind.
#[derive(Default)]
pub struct Restoring {
    text: String,
}

impl Restoring {
    pub fn new() -> Restoring {
        Restoring::default()
    }

    /// The next piece of the snapshot's text, pieces in order; their
    /// boundaries may fall anywhere, even inside a string.
    pub fn push(&mut self, piece: &str) -> Result<(), Invalid> {
        self.text.push_str(piece);
        Ok(())
    }

    /// The service the pieces make, or the first bad field.
    pub fn finish(self, wall: Box<dyn Clock>) -> Result<Service, Invalid> {
        Service::restore(&self.text, wall)
    }
}
