//! The one way in: raw requests parsed once at the edge, routed to a
//! service, answered as an envelope, and written to the journal.
//!
//! - [`request`]: the raw request, its path and headers, and its limits;
//! - [`body`]: the request body, parsed once, and its fields;
//! - [`parse`]: request bodies and queries into domain values;
//! - [`route`]: the eight documented routes, and hints for the rest;
//! - [`error`]: every failure, mapped to status and envelope in one place;
//! - [`envelope`]: `{code, msg, data}` and the HTTP response around it;
//! - [`backend`]: the state the gateway serves;
//! - [`events`]: the bounded log of events, and their JSON text;
//! - `openapi` (with the `serde` feature): the OpenAPI document,
//!   rendered from the route table;
//! - [`idempotency`]: the answers kept by `Idempotency-Key`;
//! - [`scenario`]: a request's facts for the scenario's rules, and what a
//!   rule's `then` does to it;
//! - [`exchange`]: one request from arrival to answer;
//! - [`webhook_spec`], [`webhooks`]: webhook endpoints, and the protocol
//!   the JS sender drives to deliver events; [`delivery_faults`]: a
//!   scenario's delivery rules applied;
//! - [`challenge_page`]: the simulated 3-D Secure challenge page of a
//!   challenged payment, which the exchange serves.

pub mod attempt_record;
pub mod backend;
pub mod body;
pub mod challenge_page;
pub mod delivery_faults;
pub mod envelope;
pub mod error;
pub mod events;
pub mod exchange;
pub mod idempotency;
// Only tests/openapi_js.rs calls it, natively, where the crate has the
// `serde` feature (Cargo.toml, beside serde_json); not in the package.
#[cfg(feature = "serde")]
pub mod openapi;
pub mod parse;
pub mod request;
pub mod route;
pub mod scenario;
pub mod webhook_spec;
pub mod webhooks;

pub use backend::Backend;
pub use envelope::{Data, Envelope, Page, Response};
pub use error::ApiError;
pub use request::RawRequest;
