//! `Service::restore` of arbitrary text: it never panics, and what it
//! accepts is a service that answers every route correctly.
#![no_main]

use libfuzzer_sys::fuzz_target;
use orderpay::sim::clock::VirtualClock;
use orderpay::Service;

#[path = "../../properties/mod.rs"]
mod properties;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(mut svc) = Service::restore(text, Box::new(VirtualClock::starting_at(0))) {
        if let Err(broken) = properties::answers_every_route(&mut svc) {
            panic!("an accepted snapshot gave a broken service: {broken}");
        }
    }
});
