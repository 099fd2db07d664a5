//! The binding: JS values in, the core called, JS values out. Nothing here
//! decides behaviour; it converts, and it makes sure no input can throw or
//! trap (a trap would poison the module for the whole page).

use std::cell::RefCell;
use std::collections::BTreeMap;

use js_sys::{Array, JsString, Object, Reflect, Uint8Array};
use serde::Serialize;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::gateway::request::{RawRequest, Text, MAX_BODY_BYTES, MAX_PATH_BYTES};
use crate::gateway::{ApiError, Envelope, Response};
use crate::service::Service as Core;
use crate::sim::clock::{Clock, VirtualClock};
use crate::sim::invalid::{Invalid, InvalidKind};
use crate::sim::settings::{Settings, DEFAULT_LOG_CAPACITY};
use crate::sim::third_party::Forced;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = r#"
/** An order, as create-order and get-order return it. */
export interface Order {
  /** `ORD-` and 8 upper-case letters or digits. */
  orderId: string;
  userId: string;
  price: number;
  status: "CREATED" | "PAID";
  description: string;
  /** Unix time in milliseconds. */
  createdAt: number;
}

export type PaymentMethod = "CARD" | "WALLET_A" | "WALLET_B";

/** A payment, as payment pay and get-payment return it. */
export interface Payment {
  /** `PAY-` and 8 upper-case letters or digits. */
  paymentId: string;
  orderId: string;
  amount: number;
  status: "SUCCESS" | "REFUNDED";
  paymentMethod: PaymentMethod;
  /** Unix time in milliseconds. */
  paidAt: number;
}

/** What GET /api/test/order/batch?count=N returns. */
export interface BatchReport {
  count: number;
  succeeded: number;
  failed: number;
  orderIds: string[];
}

/** Every response body: code 0 and msg "success" on success. */
export interface Envelope<T = Order | Payment | BatchReport> {
  /** 0: success. -1: a business error. 400, 404, 405, 413...: the HTTP status of a malformed request. */
  code: number;
  msg: string;
  data: T | null;
}

/** JSON text, or a value taken as its JSON, or bytes of UTF-8 JSON text. */
export type RequestBody = string | Uint8Array | object | number | boolean | null | undefined;

/** Header names are matched without regard to case. */
export type RequestHeaders =
  | Headers
  | Record<string, string | number | boolean>
  | Iterable<readonly [string, string]>
  | null
  | undefined;

/**
 * What an HTTP server would send. Header names are lower case: content-type,
 * x-b3-traceid, x-b3-spanid, x-b3-sampled, x-b3-parentspanid (when the caller
 * sent a span), traceparent, x-sim-duration-ms (the simulated time the request
 * took), and allow on a 405.
 */
export interface HttpResponse {
  status: number;
  headers: Record<string, string>;
  body: Envelope;
}

export type UriGroup = "/order/*" | "/payment/*" | "/test/*";
export type EventClass = "order" | "payment" | "test";
export type LogStatus = "success" | "server_error" | "client_error";

interface LogRecordBase {
  /** Position in the journal, from 1; gaps show dropped records. */
  seq: number;
  /** Unix time in milliseconds. */
  timestamp: number;
  traceId: string;
  /** The gateway's span for gateway and response records, the service's for service records. */
  spanId: string;
  /** The caller's span (from B3 or traceparent) for gateway and response records; the gateway's span for service records. */
  parentSpanId: string | null;
}

/** Why a payment attempt ended as it did. */
export interface PaymentOutcome {
  approved: boolean;
  /** "draw": the seeded draw against the failure rate; "header": X-Sim-Outcome; "forced-next": forceNext(). */
  rule: "draw" | "header" | "forced-next";
  /** 1 for the first attempt on the order, 2 for the first retry... */
  attempt: number;
  /** The seeded draw in [0, 1); below the threshold fails. */
  draw: number;
  threshold: number;
  reason: string;
}

/** Written when the gateway receives a request. */
export interface GatewayRecord extends LogRecordBase {
  stage: "gateway";
  method: string;
  uri: string;
  uri_group: UriGroup | null;
}

/** Written when a service handled the request. */
export interface ServiceRecord extends LogRecordBase {
  stage: "service";
  event_class: EventClass;
  /** Simulated milliseconds. */
  duration: number;
  status: LogStatus;
  /** Payment pay only: what the simulated third party decided, and why. */
  outcome?: PaymentOutcome;
}

/** Written when the response goes out: the whole logging context. */
export interface ResponseRecord extends LogRecordBase {
  stage: "response";
  method: string;
  uri: string;
  uri_group: UriGroup | null;
  event_class: EventClass | null;
  duration: number | null;
  status: LogStatus;
  httpStatus: number;
  code: number;
  msg: string;
  userId: string | null;
}

export type LogRecord = GatewayRecord | ServiceRecord | ResponseRecord;

export type SpanComponent = "gateway" | "order-service" | "payment-service" | "third-party" | "test-data";

/** One timed piece of a request's work. Times are Unix ms, simulated from the request's arrival. */
export interface Span {
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  name: string;
  component: SpanComponent;
  start: number;
  end: number;
  status: LogStatus;
  /** [key, value] pairs, OpenTelemetry semantic-convention names. */
  attributes: [string, string | number | boolean][];
}

export interface OtlpAnyValue {
  stringValue?: string;
  /** int64, as a decimal string */
  intValue?: string;
  doubleValue?: number;
  boolValue?: boolean;
}
export interface OtlpKeyValue { key: string; value: OtlpAnyValue; }
export interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  /** 2: SERVER, 3: CLIENT */
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: OtlpKeyValue[];
  /** code 2: ERROR; empty: unset */
  status: { code?: number; message?: string };
}
/** An OTLP/JSON ExportTraceServiceRequest, as POST /v1/traces takes it. */
export interface OtlpTraces {
  resourceSpans: {
    resource: { attributes: OtlpKeyValue[] };
    scopeSpans: { scope: { name: string; version: string }; spans: OtlpSpan[] }[];
  }[];
}

/** One step's simulated latency: baseMs + uniform(0..spreadMs), plus uniform(0..tailMs) with chance tailChance. */
export interface LatencyProfile {
  baseMs?: number;
  spreadMs?: number;
  tailChance?: number;
  tailMs?: number;
}

export interface ServiceSettings {
  seed: number;
  failureRate: number;
  logCapacity: number;
  maxOrders: number;
  latency: { order: Required<LatencyProfile>; payment: Required<LatencyProfile>; thirdParty: Required<LatencyProfile>; test: Required<LatencyProfile> };
}

export interface ServiceOptions {
  /** Same seed and same calls: same ids, outcomes and log records. A whole number from 0 to 2^53 - 1; random when absent. */
  seed?: number;
  /** Share of payment attempts the simulated third party declines, 0 to 1. Default 0.3. */
  failureRate?: number;
  /** Most log records kept; the oldest are dropped first. Default 10000, at most 1000000. */
  logCapacity?: number;
  /** Most orders kept at once; creating one more answers HTTP 507 until orders are deleted. Default 1000000. */
  maxOrders?: number;
  /**
   * Start a virtual clock at this Unix time (ms): timestamps then move only by
   * simulated latency and `advance(ms)`, so a whole session replays to the byte.
   * Absent: the wall clock.
   */
  virtualTime?: number;
  /** Overrides of the simulated latency model; unnamed fields keep their defaults. */
  latency?: { order?: LatencyProfile; payment?: LatencyProfile; thirdParty?: LatencyProfile; test?: LatencyProfile };
}

/** An isolated instance of the service, with its own orders, payments and log. */
export class Service {
  /** Throws a TypeError or RangeError naming the option when an option is wrong. */
  constructor(options?: ServiceOptions);
  /** Answers a request with its envelope. Never throws. */
  handle(method: string, path: string, body?: RequestBody, headers?: RequestHeaders): Envelope;
  /** Answers a request with status, headers and envelope. Never throws. */
  request(method: string, path: string, body?: RequestBody, headers?: RequestHeaders): HttpResponse;
  /** Log records, oldest first; with `after`, only those with a larger seq. */
  logs(after?: number): LogRecord[];
  clearLogs(): void;
  /** How many records the log has dropped to stay within logCapacity. */
  readonly droppedLogs: number;
  /** The seed in use: pass it to a new Service to replay this one. */
  readonly seed: number;
  /** The service's current time, Unix ms. */
  readonly now: number;
  /** Moves a virtual clock on by `ms`; the wall clock ignores it. Throws a RangeError for `ms` that is not a whole number, 0 or more, or that would carry the clock past 8640000000000000 (the last time a Date holds). */
  advance(ms: number): void;
  /** The whole state (orders, payments, log, random state, clock, settings) as compact JSON text. */
  snapshot(): string;
  /** A service that continues exactly where the snapshot's left off. Throws a TypeError (wrong type, missing field, not a snapshot) or a RangeError (out of range, inconsistent) naming the first bad field, such as `snapshot.clock`. */
  static restore(snapshot: string): Service;
  /** The next `count` payment attempts (default 1) succeed or fail whatever the draw; count 0 clears. An X-Sim-Outcome header still decides its own request. */
  forceNext(outcome: "success" | "failure", count?: number): void;
  /** The settings in force (options as given, defaults filled in). */
  readonly settings: ServiceSettings;
  /** What forceNext still has to do, or null. */
  readonly forced: { outcome: "success" | "failure"; remaining: number } | null;
  /** The spans of the requests, oldest first (bounded like the log). */
  spans(): Span[];
  /** The spans as OTLP/JSON, ready to POST to a collector's /v1/traces. */
  exportOtlp(): OtlpTraces;
  /** The log records as NDJSON: one JSON object a line. */
  exportNdjson(): string;
  free(): void;
}

/** `handle` on the module's default instance. */
export function handle(method: string, path: string, body?: RequestBody, headers?: RequestHeaders): Envelope;
/** `request` on the module's default instance. */
export function request(method: string, path: string, body?: RequestBody, headers?: RequestHeaders): HttpResponse;
/** `logs` of the module's default instance. */
export function logs(after?: number): LogRecord[];
/** `clearLogs` of the module's default instance. */
export function clearLogs(): void;
"#;

// Object.keys, Object.entries and Array.from run the caller's code (a
// Proxy's traps, an iterator): these bindings catch what it throws, so that
// no exception ever unwinds through the module.
#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = Object, js_name = keys, catch)]
    fn object_keys(value: &JsValue) -> Result<Array, JsValue>;
    #[wasm_bindgen(js_namespace = Object, js_name = entries, catch)]
    fn object_entries(value: &JsValue) -> Result<Array, JsValue>;
    #[wasm_bindgen(js_namespace = Array, js_name = from, catch)]
    fn array_from(value: &JsValue) -> Result<Array, JsValue>;
}

#[wasm_bindgen(start)]
fn start() {
    console_error_panic_hook::set_once();
}

/// Wall-clock time from the JS host.
struct JsClock;

impl Clock for JsClock {
    fn now_ms(&mut self) -> i64 {
        js_sys::Date::now() as i64
    }
}

const MAX_SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;

#[wasm_bindgen(skip_typescript)]
pub struct Service {
    core: RefCell<Core>,
}

#[wasm_bindgen]
impl Service {
    #[wasm_bindgen(constructor, skip_typescript)]
    pub fn new(options: JsValue) -> Result<Service, JsValue> {
        Ok(Service {
            core: RefCell::new(core_from_options(&options)?),
        })
    }

    #[wasm_bindgen(skip_typescript)]
    pub fn handle(
        &self,
        method: JsValue,
        path: JsValue,
        body: JsValue,
        headers: JsValue,
    ) -> JsValue {
        let raw = raw_request(&method, &path, &body, &headers);
        with_core(&self.core, raw, |r| to_js(&r.body))
    }

    #[wasm_bindgen(skip_typescript)]
    pub fn request(
        &self,
        method: JsValue,
        path: JsValue,
        body: JsValue,
        headers: JsValue,
    ) -> JsValue {
        let raw = raw_request(&method, &path, &body, &headers);
        with_core(&self.core, raw, response_to_js)
    }

    #[wasm_bindgen(skip_typescript)]
    pub fn logs(&self, after: JsValue) -> JsValue {
        match self.core.try_borrow() {
            Ok(core) => to_js(&core.logs(seq_after(&after))),
            Err(_) => Array::new().into(),
        }
    }

    #[wasm_bindgen(js_name = clearLogs, skip_typescript)]
    pub fn clear_logs(&self) {
        if let Ok(mut core) = self.core.try_borrow_mut() {
            core.clear_logs();
        }
    }

    #[wasm_bindgen(getter = droppedLogs, skip_typescript)]
    pub fn dropped_logs(&self) -> f64 {
        self.core
            .try_borrow()
            .map(|c| c.journal().dropped() as f64)
            .unwrap_or(0.0)
    }

    #[wasm_bindgen(getter, skip_typescript)]
    pub fn seed(&self) -> f64 {
        self.core
            .try_borrow()
            .map(|c| c.settings().seed as f64)
            .unwrap_or(0.0)
    }

    #[wasm_bindgen(getter, skip_typescript)]
    pub fn now(&self) -> f64 {
        self.core
            .try_borrow_mut()
            .map(|mut c| c.now() as f64)
            .unwrap_or_else(|_| js_sys::Date::now())
    }

    #[wasm_bindgen(skip_typescript)]
    pub fn advance(&self, ms: JsValue) -> Result<(), JsValue> {
        let ms = ms
            .as_f64()
            .ok_or_else(|| type_error("ms: expected a whole number of milliseconds"))?;
        if let Ok(mut core) = self.core.try_borrow_mut() {
            core.try_advance(ms).map_err(invalid_to_js)?;
        }
        Ok(())
    }

    #[wasm_bindgen(skip_typescript)]
    pub fn snapshot(&self) -> String {
        self.core
            .try_borrow()
            .map(|c| c.snapshot())
            .unwrap_or_default()
    }

    #[wasm_bindgen(js_name = forceNext, skip_typescript)]
    pub fn force_next(&self, outcome: JsValue, count: JsValue) -> Result<(), JsValue> {
        let outcome = outcome
            .as_string()
            .and_then(|o| Forced::parse(&o))
            .ok_or_else(|| type_error("outcome: expected \"success\" or \"failure\""))?;
        let count = whole_number(&count, "count", f64::from(u32::MAX))?.unwrap_or(1);
        if let Ok(mut core) = self.core.try_borrow_mut() {
            core.force_next(outcome, u32::try_from(count).unwrap_or(u32::MAX));
        }
        Ok(())
    }

    #[wasm_bindgen(getter, skip_typescript)]
    pub fn settings(&self) -> JsValue {
        self.core
            .try_borrow()
            .map(|c| to_js(c.settings()))
            .unwrap_or(JsValue::NULL)
    }

    #[wasm_bindgen(getter, skip_typescript)]
    pub fn forced(&self) -> JsValue {
        #[derive(Serialize)]
        struct Pending {
            outcome: Forced,
            remaining: u32,
        }
        let pending = self.core.try_borrow().ok().and_then(|c| c.forced_next());
        to_js(&pending.map(|(outcome, remaining)| Pending { outcome, remaining }))
    }

    #[wasm_bindgen(skip_typescript)]
    pub fn spans(&self) -> JsValue {
        self.core
            .try_borrow()
            .map(|c| to_js(&c.spans()))
            .unwrap_or_else(|_| Array::new().into())
    }

    #[wasm_bindgen(js_name = exportOtlp, skip_typescript)]
    pub fn export_otlp(&self) -> JsValue {
        self.core
            .try_borrow()
            .map(|c| to_js(&c.export_otlp()))
            .unwrap_or(JsValue::NULL)
    }

    #[wasm_bindgen(js_name = exportNdjson, skip_typescript)]
    pub fn export_ndjson(&self) -> String {
        self.core
            .try_borrow()
            .map(|c| c.export_ndjson())
            .unwrap_or_default()
    }

    #[wasm_bindgen(skip_typescript)]
    pub fn restore(snapshot: JsValue) -> Result<Service, JsValue> {
        let text = snapshot
            .as_string()
            .ok_or_else(|| type_error("snapshot: expected the text snapshot() returned"))?;
        let core = Core::restore(&text, Box::new(JsClock)).map_err(invalid_to_js)?;
        Ok(Service {
            core: RefCell::new(core),
        })
    }
}

thread_local! {
    static DEFAULT: RefCell<Option<Core>> = const { RefCell::new(None) };
}

/// Runs a request on the default instance, made on first use.
fn on_default(raw: RawRequest, out: impl FnOnce(&Response) -> JsValue) -> JsValue {
    DEFAULT.with(|cell| {
        if let Ok(mut slot) = cell.try_borrow_mut() {
            if slot.is_none() {
                *slot = core_from_options(&JsValue::UNDEFINED).ok();
            }
        }
        match cell
            .try_borrow_mut()
            .ok()
            .as_deref_mut()
            .and_then(Option::as_mut)
        {
            Some(core) => out(&core.handle(raw)),
            None => out(&internal_error("the default service is busy")),
        }
    })
}

/// The OpenAPI 3.1 document of the eight endpoints, as JSON text.
#[wasm_bindgen(js_name = openapi)]
pub fn openapi() -> String {
    crate::gateway::openapi::document()
}

#[wasm_bindgen(skip_typescript)]
pub fn handle(method: JsValue, path: JsValue, body: JsValue, headers: JsValue) -> JsValue {
    on_default(raw_request(&method, &path, &body, &headers), |r| {
        to_js(&r.body)
    })
}

#[wasm_bindgen(skip_typescript)]
pub fn request(method: JsValue, path: JsValue, body: JsValue, headers: JsValue) -> JsValue {
    on_default(raw_request(&method, &path, &body, &headers), response_to_js)
}

#[wasm_bindgen(skip_typescript)]
pub fn logs(after: JsValue) -> JsValue {
    DEFAULT.with(
        |cell| match cell.try_borrow().ok().as_deref().and_then(Option::as_ref) {
            Some(core) => to_js(&core.logs(seq_after(&after))),
            None => Array::new().into(),
        },
    )
}

#[wasm_bindgen(js_name = clearLogs, skip_typescript)]
pub fn clear_logs() {
    DEFAULT.with(|cell| {
        if let Some(core) = cell
            .try_borrow_mut()
            .ok()
            .as_deref_mut()
            .and_then(Option::as_mut)
        {
            core.clear_logs();
        }
    })
}

/// Inputs are converted before the service is borrowed: converting may
/// run the caller's code (a `toJSON`, a getter), and that code may itself
/// call the service.
fn with_core(
    core: &RefCell<Core>,
    raw: RawRequest,
    out: impl FnOnce(&Response) -> JsValue,
) -> JsValue {
    match core.try_borrow_mut() {
        Ok(mut core) => out(&core.handle(raw)),
        Err(_) => out(&internal_error("the service is busy with another request")),
    }
}

/// The `after` of `logs(after?)`: a seq, or none for every record.
fn seq_after(after: &JsValue) -> Option<u64> {
    after.as_f64().map(|n| n.max(0.0) as u64)
}

fn internal_error(what: &str) -> Response {
    let error = ApiError::Internal(what.to_owned());
    Response {
        status: error.http_status(),
        headers: crate::gateway::envelope::Headers::default(),
        body: Envelope::failure(&error),
    }
}

fn core_from_options(options: &JsValue) -> Result<Core, JsValue> {
    let mut settings = Settings::with_seed(random_seed());
    if options.is_undefined() || options.is_null() {
        return Core::new(settings, Box::new(JsClock)).map_err(range_error);
    }
    if !options.is_object() {
        return Err(type_error(
            "options: expected an object such as { seed: 42 }",
        ));
    }
    let known = [
        "seed",
        "failureRate",
        "logCapacity",
        "maxOrders",
        "virtualTime",
        "latency",
    ];
    for key in object_keys(options)?.iter() {
        let key = key.as_string().unwrap_or_default();
        if !known.contains(&key.as_str()) {
            return Err(type_error(&format!(
                "options: unknown option {key:?}; known are {}",
                known.join(", ")
            )));
        }
    }
    let get =
        |name: &str| Reflect::get(options, &JsValue::from_str(name)).unwrap_or(JsValue::UNDEFINED);
    if let Some(seed) = whole_number(&get("seed"), "seed", MAX_SAFE_INTEGER)? {
        settings.seed = seed;
    }
    let rate = get("failureRate");
    if !rate.is_undefined() {
        settings.failure_rate = rate
            .as_f64()
            .ok_or_else(|| type_error("failureRate: expected a number from 0 to 1"))?;
    }
    if let Some(capacity) = whole_number(&get("logCapacity"), "logCapacity", MAX_SAFE_INTEGER)? {
        settings.log_capacity = usize::try_from(capacity).unwrap_or(usize::MAX);
    } else {
        settings.log_capacity = DEFAULT_LOG_CAPACITY;
    }
    if let Some(max) = whole_number(&get("maxOrders"), "maxOrders", MAX_SAFE_INTEGER)? {
        settings.max_orders = usize::try_from(max).unwrap_or(usize::MAX);
    }
    let latency = get("latency");
    if !latency.is_undefined() {
        let json = js_sys::JSON::stringify(&latency)
            .ok()
            .and_then(|j| j.as_string())
            .ok_or_else(|| {
                type_error("latency: expected an object such as { thirdParty: { baseMs: 500 } }")
            })?;
        settings.latency = settings
            .latency
            .with_overrides(&json)
            .map_err(|e| type_error(&e))?;
    }
    let start = get("virtualTime");
    let clock: Box<dyn Clock> = if start.is_undefined() {
        Box::new(JsClock)
    } else {
        let ms = start
            .as_f64()
            .ok_or_else(|| type_error("virtualTime: expected a Unix time in milliseconds"))?;
        let ms = crate::sim::time_limits::start_time("virtualTime", ms).map_err(invalid_to_js)?;
        Box::new(VirtualClock::starting_at(ms))
    };
    Core::new(settings, clock).map_err(range_error)
}

fn whole_number(value: &JsValue, name: &str, max: f64) -> Result<Option<u64>, JsValue> {
    if value.is_undefined() {
        return Ok(None);
    }
    let n = value
        .as_f64()
        .ok_or_else(|| type_error(&format!("{name}: expected a whole number")))?;
    if !(n.fract() == 0.0 && (0.0..=max).contains(&n)) {
        return Err(range_error(format!(
            "{name}: must be a whole number from 0 to {max}, got {n}"
        )));
    }
    Ok(Some(n as u64))
}

/// A seed that a `number` can hold exactly, so `service.seed` replays.
fn random_seed() -> u64 {
    let mut bytes = [0u8; 8];
    if getrandom::fill(&mut bytes).is_err() {
        bytes = (js_sys::Math::random() * MAX_SAFE_INTEGER)
            .to_bits()
            .to_le_bytes();
    }
    u64::from_le_bytes(bytes) & (MAX_SAFE_INTEGER as u64)
}

/// A refusal of the core as the JS error of its kind.
fn invalid_to_js(invalid: Invalid) -> JsValue {
    match invalid.kind {
        InvalidKind::WrongType => type_error(&invalid.msg),
        InvalidKind::OutOfRange => range_error(invalid.msg),
    }
}

fn type_error(msg: &str) -> JsValue {
    js_sys::TypeError::new(msg).into()
}

fn range_error(msg: String) -> JsValue {
    js_sys::RangeError::new(&msg).into()
}

/// Turns the four JS arguments into a raw request, without ever failing:
/// what cannot be read is noted for the gateway to answer with a 400.
fn raw_request(method: &JsValue, path: &JsValue, body: &JsValue, headers: &JsValue) -> RawRequest {
    let not_a_string = |field: &str, value: &JsValue| {
        (
            field.to_owned(),
            format!("expected a string, got {}", js_kind(value)),
        )
    };
    let mut raw = RawRequest::default();
    let mut problems = Vec::new();
    match method.as_string() {
        Some(m) => raw.method = m,
        None => problems.push(not_a_string("method", method)),
    }
    match bounded_text(path, MAX_PATH_BYTES) {
        Some(text) => raw.path = text,
        None => problems.push(not_a_string("path", path)),
    }
    match read_body(body) {
        Ok(text) => raw.body = text,
        Err(problem) => problems.push(("body".to_owned(), problem)),
    }
    match read_headers(headers) {
        Ok(list) => raw.headers = list,
        Err(problem) => problems.push(("headers".to_owned(), problem)),
    }
    raw.unreadable = problems.into_iter().next();
    raw
}

/// A JS string as text, measured before it is copied: one far over the
/// limit is never brought into wasm memory at all.
fn bounded_text(value: &JsValue, limit: usize) -> Option<Text> {
    let js = value.dyn_ref::<JsString>()?;
    // UTF-8 takes at least one byte per UTF-16 unit.
    let units = js.length() as usize;
    if units > limit {
        return Some(Text::TooLarge { bytes: units });
    }
    value.as_string().map(Text::Given)
}

fn read_body(body: &JsValue) -> Result<Option<Text>, String> {
    if body.is_undefined() || body.is_null() {
        return Ok(None);
    }
    if body.is_string() {
        return Ok(bounded_text(body, MAX_BODY_BYTES));
    }
    if let Some(bytes) = body.dyn_ref::<Uint8Array>() {
        let len = bytes.length() as usize;
        if len > MAX_BODY_BYTES {
            return Ok(Some(Text::TooLarge { bytes: len }));
        }
        return String::from_utf8(bytes.to_vec())
            .map(|t| Some(Text::Given(t)))
            .map_err(|_| "not valid UTF-8 text".to_owned());
    }
    match js_sys::JSON::stringify(body) {
        Ok(json) if json.is_string() => Ok(bounded_text(&json.into(), MAX_BODY_BYTES)),
        Ok(_) => Err(format!("{} has no JSON form", js_kind(body))),
        Err(e) => Err(format!("cannot be turned into JSON: {}", error_text(&e))),
    }
}

fn read_headers(headers: &JsValue) -> Result<Vec<(String, String)>, String> {
    if headers.is_undefined() || headers.is_null() {
        return Ok(Vec::new());
    }
    if !headers.is_object() {
        return Err(format!(
            "expected an object or a Headers, got {}",
            js_kind(headers)
        ));
    }
    let mut list = Vec::new();
    let pairs: Vec<JsValue> = match js_sys::try_iter(headers) {
        Ok(Some(iter)) => iter.collect::<Result<_, _>>().map_err(|e| error_text(&e))?,
        Ok(None) => object_entries(headers)
            .map_err(|e| error_text(&e))?
            .iter()
            .collect(),
        Err(e) => return Err(error_text(&e)),
    };
    for pair in pairs {
        let pair = array_from(&pair).map_err(|e| error_text(&e))?;
        let name = pair
            .get(0)
            .as_string()
            .ok_or("a header name is not a string")?;
        let value = pair.get(1);
        let text = if let Some(s) = value.as_string() {
            s
        } else if let Some(n) = value.as_f64() {
            format!("{n}")
        } else if let Some(b) = value.as_bool() {
            b.to_string()
        } else {
            return Err(format!(
                "{name}: expected a string, got {}",
                js_kind(&value)
            ));
        };
        list.push((name, text));
    }
    Ok(list)
}

fn js_kind(value: &JsValue) -> String {
    if value.is_null() {
        return "null".to_owned();
    }
    if Array::is_array(value) {
        return "an array".to_owned();
    }
    value
        .js_typeof()
        .as_string()
        .unwrap_or_else(|| "a value".to_owned())
}

fn error_text(error: &JsValue) -> String {
    error
        .dyn_ref::<js_sys::Error>()
        .and_then(|e| e.message().as_string())
        .or_else(|| error.as_string())
        .unwrap_or_else(|| "unknown error".to_owned())
}

/// The one serializer: plain objects, never `Map`, and `null` for absent.
fn to_js<T: Serialize + ?Sized>(value: &T) -> JsValue {
    let serializer = serde_wasm_bindgen::Serializer::json_compatible();
    value.serialize(&serializer).unwrap_or_else(|e| {
        let failure = Envelope::failure(&ApiError::Internal(e.to_string()));
        let object = Object::new();
        let _ = Reflect::set(&object, &"code".into(), &JsValue::from(failure.code));
        let _ = Reflect::set(&object, &"msg".into(), &JsValue::from_str(&failure.msg));
        let _ = Reflect::set(&object, &"data".into(), &JsValue::NULL);
        object.into()
    })
}

#[derive(Serialize)]
struct HttpResponse<'a> {
    status: u16,
    headers: BTreeMap<&'a str, &'a str>,
    body: &'a Envelope,
}

fn response_to_js(response: &Response) -> JsValue {
    let headers = response.headers.iter().collect();
    to_js(&HttpResponse {
        status: response.status,
        headers,
        body: &response.body,
    })
}
