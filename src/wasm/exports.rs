//! What the module exports: `RawService` (one service, which the JS layer
//! wraps as the public `Service`), `RawPieces` and `RawRestoring` (the
//! incremental forms), and `traceHeaders`; `RawTape` and `RawText`, the
//! long reads and long texts, are exported from `tape.rs` and `text_in.rs`.
//! Every method takes strings, bytes and numbers and returns a number, a
//! string or JSON text: no JS object crosses, in either direction.
//!
//! Returning a JS object reference from an export is what crashed Node
//! (V8 11.3, `Deoptimizer::DoComputeBuiltinContinuation`): V8 inlines a
//! hot JS-to-wasm call into the optimized caller, and when the caller is
//! deoptimized while the call runs, V8 cannot rebuild a frame whose wasm
//! call returns a reference, and aborts the process.

use crate::prelude::*;

use core::cell::RefCell;

use wasm_bindgen::prelude::*;

use crate::gateway::{ApiError, Envelope, Response};
use crate::service::{Pieces, Restoring, Service as Core};
use crate::sim::third_party::Forced;

use super::host::JsClock;
use super::json;
use super::options::{self, invalid_to_js, type_error, Options};
use super::plain::Parts;
use super::scratch::Scratch;
use super::tape::RawTape;
use super::text_in::RawText;
use super::wall;
use crate::json::write::{escape_into, push_uint, Out};
use crate::observe::tape::Written;
use crate::observe::TraceId;

/// How an answer is written: the envelope, or status and headers first.
type Writer = fn(&Response, &mut Out);

/// A service behind plain data. Only the package's JS layer calls it.
#[wasm_bindgen(js_name = RawService)]
pub struct Service {
    core: RefCell<Core>,
    scratch: RefCell<Scratch>,
}

#[wasm_bindgen(js_class = RawService)]
impl Service {
    /// Throws a `RangeError` naming an option out of range.
    #[wasm_bindgen(constructor)]
    pub fn new(
        seed: Option<f64>,
        failure_rate: Option<f64>,
        log_capacity: Option<f64>,
        max_orders: Option<f64>,
        virtual_time: Option<f64>,
        latency: Option<String>,
        idempotency_keys: Option<f64>,
    ) -> Result<Service, JsValue> {
        let core = options::core_from(Options {
            seed,
            failure_rate,
            log_capacity,
            max_orders,
            idempotency_keys,
            virtual_time,
            latency,
        })?;
        Ok(Service {
            core: RefCell::new(core),
            scratch: RefCell::default(),
        })
    }

    /// Makes room for `needed` bytes of a request in the scratch region
    /// (`scratch.rs`) and returns where it starts.
    pub fn reserve(&self, needed: u32) -> u32 {
        match self.scratch.try_borrow_mut() {
            Ok(mut scratch) => scratch.reserve(needed as usize),
            Err(_) => 0,
        }
    }

    /// Handles the request the JS layer wrote in the scratch region, and
    /// writes its envelope there as JSON text; returns where it starts.
    /// `now` is the wall-clock time, `Date.now()`.
    #[wasm_bindgen(js_name = handle)]
    pub fn handle_in_scratch(&self, flags: u32, used: u32, now: f64) -> u32 {
        wall::during(now, || self.exchange(flags, used, json::envelope))
    }

    /// As `handle`, answering status and headers, a newline, and the
    /// envelope, as JSON text.
    #[wasm_bindgen(js_name = request)]
    pub fn request_in_scratch(&self, flags: u32, used: u32, now: f64) -> u32 {
        wall::during(now, || self.exchange(flags, used, json::response))
    }

    /// The log records (those after `after`, when given) on a tape.
    #[wasm_bindgen(js_name = logsTape)]
    pub fn logs_tape(&self, after: Option<f64>) -> Result<RawTape, JsValue> {
        let after = after.map(seq_after);
        self.tape(|core| core.logs_tape(after))
    }

    /// The log records (those after `after`, when given) as a JSON array:
    /// the text `logs()`'s objects stand for, which the server sends as
    /// it is.
    #[wasm_bindgen(js_name = logsJson)]
    pub fn logs(&self, after: Option<f64>) -> String {
        match self.core.try_borrow() {
            Ok(core) => json::records(&core, after.map(seq_after)),
            Err(_) => "[]".to_owned(),
        }
    }

    /// At most `limit` records after `after`, for the server's live
    /// stream: the `seq` of the last of them (`after` when there is
    /// none), a space, how many they are, a newline, and their JSON array.
    #[wasm_bindgen(js_name = logsPage)]
    pub fn logs_page(&self, after: f64, limit: u32) -> String {
        let after = seq_after(after);
        let (count, last, text) = match self.core.try_borrow() {
            Ok(core) => core
                .journal()
                .records_page_json(Some(after), limit as usize),
            Err(_) => (0, None, "[]".to_owned()),
        };
        let mut page = String::with_capacity(text.len() + 32);
        push_uint(&mut page, last.unwrap_or(after));
        page.push(' ');
        push_uint(&mut page, count as u64);
        page.push('\n');
        page.push_str(&text);
        page
    }

    #[wasm_bindgen(js_name = clearLogs)]
    pub fn clear_logs(&self) {
        if let Ok(mut core) = self.core.try_borrow_mut() {
            core.clear_logs();
        }
    }

    #[wasm_bindgen(js_name = droppedLogs)]
    pub fn dropped_logs(&self) -> f64 {
        self.core
            .try_borrow()
            .map(|c| c.journal().dropped() as f64)
            .unwrap_or(0.0)
    }

    /// The counters over every request since the service started, as JSON
    /// text (never bounded by the log).
    pub fn counters(&self) -> String {
        self.core
            .try_borrow()
            .map(|c| c.counters_json())
            .unwrap_or_else(|_| "null".to_owned())
    }

    pub fn seed(&self) -> f64 {
        self.core
            .try_borrow()
            .map(|c| c.settings().seed as f64)
            .unwrap_or(0.0)
    }

    pub fn now(&self) -> f64 {
        self.core
            .try_borrow_mut()
            .map(|mut c| c.now() as f64)
            .unwrap_or_else(|_| js_sys::Date::now())
    }

    /// Moves a virtual clock on; a `RangeError` for what is not a whole
    /// number of ms, 0 or more, or would carry the clock past the last
    /// time a JS `Date` holds (the JS layer has refused non-numbers).
    pub fn advance(&self, ms: f64) -> Result<(), JsValue> {
        if let Ok(mut core) = self.core.try_borrow_mut() {
            core.try_advance(ms).map_err(invalid_to_js)?;
        }
        Ok(())
    }

    /// Ends a payment's open challenge as the buyer would; the payment
    /// as JSON text. A `TypeError` naming `outcome` for anything but
    /// pass, fail or abandon; a `RangeError` naming `paymentId` for a
    /// payment unknown or not awaiting one.
    #[wasm_bindgen(js_name = completeChallenge)]
    pub fn complete_challenge(&self, payment_id: &str, outcome: &str) -> Result<String, JsValue> {
        let Ok(mut core) = self.core.try_borrow_mut() else {
            return Ok("null".to_owned());
        };
        let payment = core
            .complete_challenge(payment_id, outcome)
            .map_err(invalid_to_js)?;
        Ok(json::payment(&payment))
    }

    /// `Service::place_order`: an order under a chosen id; its
    /// `createdAt`, or `undefined` when refused.
    #[wasm_bindgen(js_name = placeOrder)]
    pub fn place_order(
        &self,
        id: &str,
        user_id: &str,
        price: f64,
        description: &str,
    ) -> Option<f64> {
        let mut core = self.core.try_borrow_mut().ok()?;
        core.place_order(id, user_id, price, description)
            .map(|at| at as f64)
    }

    /// The payments awaiting a challenge, in id order, as a JSON array;
    /// with `pending`, the PENDING ones too.
    pub fn challenges(&self, pending: bool) -> String {
        self.core
            .try_borrow()
            .map(|c| json::payments(&c.in_progress(pending)))
            .unwrap_or_else(|_| "[]".to_owned())
    }

    /// The events after the event id `after` (all kept without it), as a
    /// JSON array of their texts; turns webhooks on. A `RangeError`
    /// naming `after` for an id that is not one of this service's events.
    pub fn events(&self, after: Option<String>) -> Result<String, JsValue> {
        let Ok(mut core) = self.core.try_borrow_mut() else {
            return Ok("[]".to_owned());
        };
        core.events_json(after.as_deref()).map_err(invalid_to_js)
    }

    /// Registers a webhook endpoint from its JSON text; the endpoint as
    /// JSON (`{id, url | handler, secret, events, header}`). A `TypeError`
    /// or `RangeError` naming the field for a wrong one.
    #[wasm_bindgen(js_name = addWebhook)]
    pub fn add_webhook(&self, spec: &str) -> Result<String, JsValue> {
        let mut core = self.core.try_borrow_mut().map_err(|_| reentered())?;
        core.add_webhook(spec).map_err(invalid_to_js)
    }

    /// Removes the endpoint `id`; a `RangeError` naming `id` if unknown.
    #[wasm_bindgen(js_name = removeWebhook)]
    pub fn remove_webhook(&self, id: &str) -> Result<(), JsValue> {
        let mut core = self.core.try_borrow_mut().map_err(|_| reentered())?;
        core.remove_webhook(id).map_err(invalid_to_js)
    }

    /// The endpoints with their deliveries, as a JSON array.
    pub fn webhooks(&self) -> String {
        self.core
            .try_borrow()
            .map(|c| c.webhooks_json())
            .unwrap_or_else(|_| "[]".to_owned())
    }

    /// Resolves what is due at the service's now (`now`: the wall-clock
    /// time, `Date.now()`, read on the wall clock only) and hands over
    /// the delivery attempts due, each marked in flight, as a JSON array.
    #[wasm_bindgen(js_name = takeDue)]
    pub fn take_due(&self, now: f64) -> String {
        wall::during(now, || match self.core.try_borrow_mut() {
            Ok(mut core) => core.take_due(),
            Err(_) => "[]".to_owned(),
        })
    }

    /// Records attempt `n` of `delivery`: `status` 0 for no answer,
    /// `error` empty for none; the delivery as JSON. A `RangeError`
    /// naming `delivery` or `n` for one not in flight.
    #[wasm_bindgen(js_name = reportAttempt)]
    pub fn report_attempt(
        &self,
        delivery: &str,
        n: u32,
        status: u32,
        duration_ms: f64,
        error: &str,
    ) -> Result<String, JsValue> {
        let mut core = self.core.try_borrow_mut().map_err(|_| reentered())?;
        let status = u16::try_from(status).unwrap_or(0);
        let duration = if duration_ms.is_finite() && duration_ms > 0.0 {
            duration_ms as u64
        } else {
            0
        };
        core.report_attempt(delivery, n, status, duration, error)
            .map_err(invalid_to_js)
    }

    /// A new attempt of `delivery` due now; the delivery as JSON.
    pub fn resend(&self, delivery: &str, now: f64) -> Result<String, JsValue> {
        wall::during(now, || {
            let mut core = self.core.try_borrow_mut().map_err(|_| reentered())?;
            core.resend(delivery).map_err(invalid_to_js)
        })
    }

    /// Whether the service's clock is virtual (the wall clock is not).
    #[wasm_bindgen(js_name = virtualClock)]
    pub fn virtual_clock(&self) -> bool {
        self.core.try_borrow().is_ok_and(|c| c.virtual_clock())
    }

    /// The soonest time a payment's change or a delivery's attempt is due
    /// (epoch ms), if any.
    #[wasm_bindgen(js_name = nextDue)]
    pub fn next_due(&self) -> Option<f64> {
        self.core.try_borrow().ok()?.next_due().map(|t| t as f64)
    }

    pub fn snapshot(&self) -> String {
        self.core
            .try_borrow()
            .map(|c| c.snapshot())
            .unwrap_or_default()
    }

    /// Throws a `TypeError` for an outcome other than "success" or
    /// "failure", a `RangeError` for a count that is not a whole number.
    #[wasm_bindgen(js_name = forceNext)]
    pub fn force_next(&self, outcome: &str, count: Option<f64>) -> Result<(), JsValue> {
        let outcome = Forced::parse(outcome)
            .ok_or_else(|| type_error("outcome: expected \"success\" or \"failure\""))?;
        let count = options::whole_number(count, "count", f64::from(u32::MAX))?.unwrap_or(1);
        if let Ok(mut core) = self.core.try_borrow_mut() {
            core.force_next(outcome, u32::try_from(count).unwrap_or(u32::MAX));
        }
        Ok(())
    }

    pub fn settings(&self) -> String {
        self.core
            .try_borrow()
            .map(|c| json::settings(&c))
            .unwrap_or_else(|_| "null".to_owned())
    }

    /// Sets the scenario from a document's JSON text (the package turns a
    /// preset's name into one first), or clears it (`None`); a `TypeError` or `RangeError` naming the
    /// document's path, and nothing changed, for a bad one.
    #[wasm_bindgen(js_name = setScenario)]
    pub fn set_scenario(&self, text: Option<String>) -> Result<(), JsValue> {
        if let Ok(mut core) = self.core.try_borrow_mut() {
            core.set_scenario(text.as_deref()).map_err(invalid_to_js)?;
        }
        Ok(())
    }

    /// The scenario in force and its progress, as JSON text, or `null`.
    pub fn scenario(&self) -> String {
        self.core
            .try_borrow()
            .map(|c| c.scenario_json())
            .unwrap_or_else(|_| "null".to_owned())
    }

    pub fn forced(&self) -> String {
        json::forced(self.core.try_borrow().ok().and_then(|c| c.forced_next()))
    }

    /// The spans on a tape.
    #[wasm_bindgen(js_name = spansTape)]
    pub fn spans_tape(&self) -> Result<RawTape, JsValue> {
        self.tape(Core::spans_tape)
    }

    /// The OTLP/JSON export on a tape.
    #[wasm_bindgen(js_name = otlpTape)]
    pub fn otlp_tape(&self) -> Result<RawTape, JsValue> {
        self.tape(Core::otlp_tape)
    }

    /// The spans as a JSON array; with `trace_id`, only that trace's. A
    /// `TypeError` naming `traceId` for an id the service never gives
    /// (not 16 or 32 lower-case hex digits, or all zeros).
    #[wasm_bindgen(js_name = spansJson)]
    pub fn spans_json(&self, trace_id: Option<String>) -> Result<String, JsValue> {
        let Some(text) = trace_id else {
            return Ok(self.spans());
        };
        let trace = TraceId::parse(&text).ok_or_else(|| {
            let mut msg = String::from(
                "traceId: expected 16 or 32 lower-case hex digits, not all zeros, got ",
            );
            escape_into(&mut msg, &text);
            type_error(&msg)
        })?;
        let core = self.core.try_borrow().map_err(|_| type_error(BUSY))?;
        Ok(core.journal().trace_spans_json(trace))
    }

    /// The OTLP/JSON export as text: what `exportOtlp()`'s object stands
    /// for.
    #[wasm_bindgen(js_name = otlpJson)]
    pub fn export_otlp(&self) -> String {
        self.core
            .try_borrow()
            .map(|c| json::otlp(&c))
            .unwrap_or_else(|_| "null".to_owned())
    }

    #[wasm_bindgen(js_name = exportNdjson)]
    pub fn export_ndjson(&self) -> String {
        self.core
            .try_borrow()
            .map(|c| c.export_ndjson())
            .unwrap_or_default()
    }

    /// `snapshot()` in pieces, fixed as the service is now.
    #[wasm_bindgen(js_name = snapshotPieces)]
    pub fn snapshot_pieces(&self) -> Result<RawPieces, JsValue> {
        self.pieces(Core::snapshot_pieces)
    }

    /// `exportNdjson()` in pieces, fixed as the log is now.
    #[wasm_bindgen(js_name = ndjsonPieces)]
    pub fn ndjson_pieces(&self) -> Result<RawPieces, JsValue> {
        self.pieces(Core::ndjson_pieces)
    }

    /// `exportOtlp()`'s JSON text in pieces, fixed as the spans are now.
    #[wasm_bindgen(js_name = otlpPieces)]
    pub fn otlp_pieces(&self) -> Result<RawPieces, JsValue> {
        self.pieces(Core::otlp_pieces)
    }

    /// `restore` of a text the JS layer wrote into memory (`RawText`):
    /// the one way a whole snapshot comes in from JS.
    #[wasm_bindgen(js_name = restoreText)]
    pub fn restore_text(snapshot: RawText) -> Result<Service, JsValue> {
        let text = snapshot
            .into_text()
            .ok_or_else(|| type_error("snapshot: expected the text snapshot() returned"))?;
        Service::restore(&text)
    }
}

impl Service {
    /// Throws a `TypeError` (wrong type, missing field, not a snapshot) or
    /// a `RangeError` (out of range, inconsistent) naming the first bad
    /// field.
    pub fn restore(snapshot: &str) -> Result<Service, JsValue> {
        let core = Core::restore(snapshot, Box::new(JsClock)).map_err(invalid_to_js)?;
        Ok(Service {
            core: RefCell::new(core),
            scratch: RefCell::default(),
        })
    }

    #[cfg(feature = "boundary-bench")]
    pub(super) fn core(&self) -> &RefCell<Core> {
        &self.core
    }
}

/// A long text handed out in pieces, from a copy taken when it was opened
/// (see `service::Pieces`).
#[wasm_bindgen(js_name = RawPieces)]
pub struct RawPieces {
    pieces: Pieces,
}

#[wasm_bindgen(js_class = RawPieces)]
impl RawPieces {
    /// The next piece, of at least `size` bytes of UTF-8 unless it is the
    /// last; `undefined` once all are out. The JS layer checks `size`.
    pub fn next(&mut self, size: f64) -> Option<String> {
        let size = if size >= 1.0 { size as usize } else { 1 };
        self.pieces.next(size)
    }

    /// How far the pieces have got, from 0 to 1.
    pub fn progress(&self) -> f64 {
        self.pieces.progress()
    }
}

/// A snapshot received in pieces; `finish` makes the service.
#[wasm_bindgen(js_name = RawRestoring)]
pub struct RawRestoring {
    restoring: Option<Restoring>,
}

const RESTORE_OVER: &str =
    "restore: this restore is over (finished, or refused a damaged snapshot); start another";

#[wasm_bindgen(js_class = RawRestoring)]
impl RawRestoring {
    #[wasm_bindgen(constructor)]
    pub fn new() -> RawRestoring {
        RawRestoring {
            restoring: Some(Restoring::new()),
        }
    }

    /// Room for `bytes` of text at once (`Restoring::reserve`); a
    /// RangeError naming `options.length` when the memory has none.
    pub fn reserve(&mut self, bytes: u32) -> Result<(), JsValue> {
        let restoring = self
            .restoring
            .as_mut()
            .ok_or_else(|| type_error(RESTORE_OVER))?;
        restoring.reserve(bytes as usize).map_err(invalid_to_js)
    }

    /// Throws as `restore` does for damage found in this piece; the
    /// restore is then over.
    pub fn push(&mut self, piece: &str) -> Result<(), JsValue> {
        let restoring = self
            .restoring
            .as_mut()
            .ok_or_else(|| type_error(RESTORE_OVER))?;
        if let Err(invalid) = restoring.push(piece) {
            self.restoring = None;
            return Err(invalid_to_js(invalid));
        }
        Ok(())
    }

    /// `push` of a piece the JS layer wrote into memory (`RawText`), the
    /// way pieces come in from JS.
    #[wasm_bindgen(js_name = pushText)]
    pub fn push_text(&mut self, piece: RawText) -> Result<(), JsValue> {
        let text = piece.into_text().ok_or_else(|| {
            type_error("piece: expected a string, a piece of the text snapshot() returned")
        })?;
        self.push(&text)
    }

    /// One step of the work after the last piece (`Restoring::step`):
    /// whether only `finish` is left. Throws as `restore` does; the
    /// restore is then over.
    pub fn step(&mut self) -> Result<bool, JsValue> {
        let restoring = self
            .restoring
            .as_mut()
            .ok_or_else(|| type_error(RESTORE_OVER))?;
        restoring.step().map_err(|invalid| {
            self.restoring = None;
            invalid_to_js(invalid)
        })
    }

    /// The restored service; throws as `restore` does.
    pub fn finish(&mut self) -> Result<Service, JsValue> {
        let restoring = self
            .restoring
            .take()
            .ok_or_else(|| type_error(RESTORE_OVER))?;
        let core = restoring.finish(Box::new(JsClock)).map_err(invalid_to_js)?;
        Ok(Service {
            core: RefCell::new(core),
            scratch: RefCell::default(),
        })
    }
}

impl Default for RawRestoring {
    fn default() -> Self {
        RawRestoring::new()
    }
}

const BUSY: &str = "the service is busy with another request";

/// The same calls from Rust, with the parts as arguments (the tests in
/// `tests/web.rs` use them).
impl Service {
    /// The envelope of one request, as JSON text.
    pub fn handle(
        &self,
        method: String,
        path: Option<String>,
        body: Option<String>,
        bytes: Option<Vec<u8>>,
        headers: Vec<String>,
        left: Option<String>,
    ) -> String {
        let parts = Parts {
            method,
            path,
            body,
            bytes,
            headers,
            left,
        };
        self.answer(parts, json::envelope)
    }

    /// Status and headers, a newline, and the envelope, as JSON text.
    pub fn request(
        &self,
        method: String,
        path: Option<String>,
        body: Option<String>,
        bytes: Option<Vec<u8>>,
        headers: Vec<String>,
        left: Option<String>,
    ) -> String {
        let parts = Parts {
            method,
            path,
            body,
            bytes,
            headers,
            left,
        };
        self.answer(parts, json::response)
    }
}

impl Service {
    /// The spans as a JSON array.
    pub fn spans(&self) -> String {
        self.core
            .try_borrow()
            .map(|c| json::spans(&c))
            .unwrap_or_else(|_| "[]".to_owned())
    }

    fn tape(&self, read: impl FnOnce(&Core) -> Written) -> Result<RawTape, JsValue> {
        let core = self.core.try_borrow().map_err(|_| type_error(BUSY))?;
        Ok(RawTape::from(read(&core)))
    }

    fn pieces(&self, open: fn(&Core) -> Pieces) -> Result<RawPieces, JsValue> {
        let core = self.core.try_borrow().map_err(|_| type_error(BUSY))?;
        Ok(RawPieces {
            pieces: open(&core),
        })
    }

    /// Handles one request and writes the answer; a request made while the
    /// service is borrowed (a re-entrant call from JS) gets a 500 instead.
    fn answer(&self, parts: Parts, write: Writer) -> String {
        let mut out = Out::with_capacity(512);
        self.answer_into(parts, write, &mut out);
        out.text
    }

    fn answer_into(&self, parts: Parts, write: Writer, out: &mut Out) {
        match self.core.try_borrow_mut() {
            Ok(mut core) => write(&core.handle(parts.into_raw()), out),
            Err(_) => write(&busy(), out),
        }
    }

    /// The request in the scratch region, answered there, written in
    /// place; 0 when the region is in use (never, short of re-entrance).
    fn exchange(&self, flags: u32, used: u32, write: Writer) -> u32 {
        let Ok(mut scratch) = self.scratch.try_borrow_mut() else {
            return 0;
        };
        let parts = scratch.parts(flags, used as usize);
        scratch.answer_with(|out| self.answer_into(parts, write, out))
    }
}

/// A `seq` from JS: below 1 (or not a number) is before the first.
fn seq_after(n: f64) -> u64 {
    if n > 0.0 {
        n as u64
    } else {
        0
    }
}

/// A call made while the service is in another call of its own.
fn reentered() -> JsValue {
    type_error(BUSY)
}

fn busy() -> Response {
    let error = ApiError::Internal(BUSY.to_owned());
    Response {
        status: error.http_status(),
        headers: crate::gateway::envelope::Headers::default(),
        body: Envelope::failure(&error),
    }
}

/// The trace headers a caller would send (each "" when absent), checked by
/// the rules the service reads them with (`observe::trace`): which one its
/// trace id would come from, and why each ill-formed one is ignored, as
/// JSON text (`json::trace_verdict`).
#[wasm_bindgen(js_name = traceHeaders)]
pub fn trace_headers(trace_id: &str, span_id: &str, b3: &str, traceparent: &str) -> String {
    let (decides, problems) = crate::observe::trace::verdict(|name| {
        let value = match name {
            "x-b3-traceid" => trace_id,
            "x-b3-spanid" => span_id,
            "b3" => b3,
            "traceparent" => traceparent,
            _ => "",
        };
        (!value.is_empty()).then(|| value.to_owned())
    });
    json::trace_verdict(decides, &problems)
}
