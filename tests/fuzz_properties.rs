//! The properties of the cargo-fuzz targets (`tests/fuzz-rust/`), run on
//! stable from seeded inputs so CI checks them on every run: sessions of
//! raw and well-formed requests through the gateway, and restores of
//! damaged and random text. `FUZZ_CASES=n` runs more.

mod properties;
#[path = "properties/session.rs"]
mod session;

use orderpay::sim::clock::VirtualClock;
use orderpay::sim::random::Rng;
use orderpay::Service;

fn cases(default: u64) -> u64 {
    std::env::var("FUZZ_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(default)
}

fn random_bytes(rng: &mut Rng, max_len: u64) -> Vec<u8> {
    let len = rng.below(max_len + 1);
    (0..len).map(|_| rng.next_u64() as u8).collect()
}

#[test]
fn random_sessions_through_the_gateway_keep_every_property() {
    let mut rng = Rng::new(0x5eed);
    for case in 0..cases(3_000) {
        let input = random_bytes(&mut rng, 600);
        if let Err(broken) = session::run(&input) {
            panic!("case {case}, input {input:?}: {broken}");
        }
    }
}

#[test]
fn restoring_random_or_mutated_text_never_yields_a_broken_service() {
    let mut rng = Rng::new(0xdead);
    let mut origin = Service::new(
        orderpay::Settings::with_seed(3),
        Box::new(VirtualClock::starting_at(1_700_000_000_000)),
    )
    .map_err(|e| e.to_string());
    let snapshot = match origin.as_mut() {
        Ok(svc) => {
            let _ = properties::answers_every_route(svc);
            svc.snapshot()
        }
        Err(e) => panic!("{e}"),
    };
    let bytes = snapshot.as_bytes();
    let mut accepted = 0;
    for case in 0..cases(3_000) {
        // Half random bytes, half the real snapshot with a few bytes changed.
        let input = if case % 2 == 0 {
            random_bytes(&mut rng, 200)
        } else {
            let mut damaged = bytes.to_vec();
            for _ in 0..1 + rng.below(3) {
                let at = rng.below(damaged.len() as u64) as usize;
                damaged[at] = b"0123456789-.e\"{}[],:ntf "[rng.below(24) as usize];
            }
            damaged
        };
        let Ok(text) = std::str::from_utf8(&input) else {
            continue;
        };
        if let Ok(mut svc) = Service::restore(text, Box::new(VirtualClock::starting_at(0))) {
            accepted += 1;
            if let Err(broken) = properties::answers_every_route(&mut svc) {
                let start: String = text.chars().take(300).collect();
                panic!("case {case}: accepted {start}…\nbut broken: {broken}");
            }
        }
    }
    assert!(accepted > 0, "no damaged snapshot was accepted at all");
}
