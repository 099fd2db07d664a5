//! The order and payment services of the spec: their records, their state
//! machines and their business answers. Above the simulation (an order's
//! id is built from the seed and a hash of the order, a payment's drawn
//! from its seeded `ids` stream: see [`id`]), below everything that talks
//! HTTP.

pub mod batch_report;
pub mod chunks;
pub mod code;
pub mod delivery;
pub mod due;
pub mod event_id;
pub mod hashing;
pub mod id;
pub mod money;
pub mod order;
pub mod payment;
pub mod payment_changes;
pub mod payment_method;
pub mod payment_plan;
pub mod payment_status;
pub mod rejection;
pub mod route_table;
pub mod transition;
pub mod webhook;
/// The test cards live with the simulated third party (`sim::test_card`).
pub use crate::sim::test_card;

pub use batch_report::BatchReport;
pub use order::{NewOrder, Order, OrderStatus, Orders};
pub use payment::{
    NewPayment, NextAction, Payment, PaymentExtras, PaymentMethod, PaymentStatus, Payments,
};
pub use rejection::Rejection;
