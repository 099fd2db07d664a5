//! The top of the core: a whole service one caller owns, and the
//! test-data runner, which is a client of the gateway as well as the
//! handler of one of its routes; the webhook calls (`webhooks`).

pub mod instance;
pub mod pieces;
pub mod restoring;
pub mod snapshot;
pub mod testdata;
pub mod webhooks;

pub use instance::Service;
pub use pieces::Pieces;
pub use restoring::Restoring;
