//! Only with the `boundary-bench` feature: the same answers built as JS
//! objects field by field (serde-wasm-bindgen), the way this binding used
//! to answer, and requests passed as wasm-bindgen arguments, the way it
//! used to take them, so `tests/bench/boundary.mjs` can measure every way
//! in one build. The package never contains these exports. Also the
//! typical flow run inside the module, with no boundary crossed, for
//! `tests/bench/core-wasm.mjs` to set beside the native core's speed.

use serde::Serialize;
use wasm_bindgen::prelude::*;

use super::exports::Service;
use super::plain::Parts;
use crate::sim::clock::VirtualClock;
use crate::{Data, RawRequest, Settings};

mod flow {
    use super::{Data, RawRequest};
    use crate::Service;
    include!("../../tests/bench/typical_flow.rs");

    /// The clients of `tests/bench/throughput.rs`, on a service made as it makes one.
    pub fn run(service: &mut Service, clients: u32) -> u32 {
        (0..clients).map(|n| client(service, n)).sum()
    }
}

/// The typical flow for `clients` clients on a new service seeded as
/// tests/bench/throughput.rs seeds its own; the number of requests made.
#[wasm_bindgen(js_name = benchTypicalFlow)]
pub fn bench_typical_flow(clients: u32) -> u32 {
    match crate::Service::new(
        Settings::with_seed(1),
        Box::new(VirtualClock::starting_at(0)),
    ) {
        Ok(mut service) => flow::run(&mut service, clients),
        Err(_) => 0,
    }
}

fn to_js<T: Serialize + ?Sized>(value: &T) -> JsValue {
    let serializer = serde_wasm_bindgen::Serializer::json_compatible();
    value.serialize(&serializer).unwrap_or(JsValue::NULL)
}

#[wasm_bindgen(js_class = RawService)]
impl Service {
    /// `handle`, answering with a JS object built field by field.
    #[wasm_bindgen(js_name = handleObject)]
    pub fn handle_object(
        &self,
        method: String,
        path: Option<String>,
        body: Option<String>,
        headers: Vec<String>,
    ) -> JsValue {
        let parts = Parts {
            method,
            path,
            body,
            bytes: None,
            headers,
            left: None,
        };
        match self.core().try_borrow_mut() {
            Ok(mut core) => to_js(&core.handle(parts.into_raw()).body),
            Err(_) => JsValue::NULL,
        }
    }

    /// `handle` with the parts as wasm-bindgen arguments (an allocation
    /// per string, a table slot per header), answering JSON text.
    #[wasm_bindgen(js_name = handleArguments)]
    pub fn handle_arguments(
        &self,
        method: String,
        path: Option<String>,
        body: Option<String>,
        headers: Vec<String>,
    ) -> String {
        self.handle(method, path, body, None, headers, None)
    }

    /// `logs`, answering with JS objects built field by field.
    #[wasm_bindgen(js_name = logsObject)]
    pub fn logs_object(&self) -> JsValue {
        match self.core().try_borrow() {
            Ok(core) => to_js(&core.logs(None)),
            Err(_) => JsValue::NULL,
        }
    }
}
