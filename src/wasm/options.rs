//! The options of `new Service(...)`. The JS layer has checked their JS
//! types (a `TypeError` names the option); here are the ranges, with a
//! `RangeError` naming the option.

use crate::prelude::*;

use crate::json::message::msg;

use wasm_bindgen::JsValue;

use crate::json::number;
use crate::service::Service as Core;
use crate::sim::clock::{Clock, VirtualClock};
use crate::sim::invalid::{Invalid, InvalidKind};
use crate::sim::settings::MAX_IDEMPOTENCY_KEYS;
use crate::sim::time_limits::start_time;
use crate::sim::Settings;

use super::host::{random_seed, JsClock, MAX_SAFE_INTEGER};

/// The options, as the JS layer passes them: numbers, and the latency
/// overrides as JSON text.
pub struct Options {
    pub seed: Option<f64>,
    pub failure_rate: Option<f64>,
    pub log_capacity: Option<f64>,
    pub max_orders: Option<f64>,
    pub idempotency_keys: Option<f64>,
    pub virtual_time: Option<f64>,
    pub latency: Option<String>,
}

pub fn core_from(options: Options) -> Result<Core, JsValue> {
    let mut settings = Settings::with_seed(random_seed());
    if let Some(seed) = whole_number(options.seed, "seed", MAX_SAFE_INTEGER)? {
        settings.seed = seed;
    }
    if let Some(rate) = options.failure_rate {
        settings.failure_rate = rate;
    }
    if let Some(capacity) = whole_number(options.log_capacity, "logCapacity", MAX_SAFE_INTEGER)? {
        settings.log_capacity = usize::try_from(capacity).unwrap_or(usize::MAX);
    }
    if let Some(max) = whole_number(options.max_orders, "maxOrders", MAX_SAFE_INTEGER)? {
        settings.max_orders = usize::try_from(max).unwrap_or(usize::MAX);
    }
    let keys = whole_number(
        options.idempotency_keys,
        "idempotencyKeys",
        MAX_IDEMPOTENCY_KEYS as f64,
    )?;
    if let Some(keys) = keys {
        settings.idempotency_keys = usize::try_from(keys).unwrap_or(usize::MAX);
    }
    if let Some(json) = options.latency {
        settings.latency = settings
            .latency
            .with_overrides(&json)
            .map_err(|e| type_error(&e))?;
    }
    let clock: Box<dyn Clock> = match options.virtual_time {
        None => Box::new(JsClock),
        Some(ms) => Box::new(VirtualClock::starting_at(
            start_time("virtualTime", ms).map_err(invalid_to_js)?,
        )),
    };
    Core::new(settings, clock).map_err(|e| range_error(&e))
}

/// A whole number from 0 to `max`, or a `RangeError` naming it.
pub fn whole_number(value: Option<f64>, name: &str, max: f64) -> Result<Option<u64>, JsValue> {
    let Some(n) = value else {
        return Ok(None);
    };
    if !(n.fract() == 0.0 && (0.0..=max).contains(&n)) {
        return Err(range_error(&msg!(
            name,
            ": must be a whole number from 0 to ",
            number::display(max),
            ", got ",
            js_number(n)
        )));
    }
    Ok(Some(n as u64))
}

/// A number as JS would print it in a message (NaN, Infinity).
fn js_number(n: f64) -> String {
    if n.is_nan() {
        "NaN".to_owned()
    } else if n.is_infinite() {
        (if n > 0.0 { "Infinity" } else { "-Infinity" }).to_owned()
    } else {
        number::display(n)
    }
}

/// A refusal of the core as the JS error of its kind.
pub fn invalid_to_js(invalid: Invalid) -> JsValue {
    match invalid.kind {
        InvalidKind::WrongType => type_error(&invalid.msg),
        InvalidKind::OutOfRange => range_error(&invalid.msg),
    }
}

pub fn type_error(msg: &str) -> JsValue {
    js_sys::TypeError::new(msg).into()
}

pub fn range_error(msg: &str) -> JsValue {
    js_sys::RangeError::new(msg).into()
}
