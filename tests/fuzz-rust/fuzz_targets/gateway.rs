//! Sessions of raw requests through the gateway (arbitrary methods,
//! paths, bodies and headers, mixed with well-formed calls on the ids
//! earlier answers gave, pays by test cards, challenges ended through
//! the page or the service, clock moves and snapshot round trips), decoded
//! from the fuzzer's bytes: no panic, every answer a well-formed
//! envelope, a 4xx changes nothing, every number representable in JS.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../properties/mod.rs"]
mod properties;
#[path = "../../properties/session.rs"]
mod session;

fuzz_target!(|data: &[u8]| {
    if let Err(broken) = session::run(data) {
        panic!("{broken}");
    }
});
