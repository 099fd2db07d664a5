//! The properties of the cargo-fuzz targets (`tests/fuzz-rust/`), run on
//! stable from seeded inputs so CI checks them on every run: sessions of
//! raw and well-formed requests through the gateway, and restores of
//! damaged and random text. `FUZZ_CASES=n` runs more.

mod common;
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

/// Scenario documents: the presets and one with every matcher and kind.
fn scenario_seeds() -> Vec<String> {
    let mut seeds: Vec<String> = common::presets()
        .into_iter()
        .map(|(_, text)| text)
        .collect();
    seeds.push(
        r#"{"name":"all","rules":[{"name":"a","when":{"route":"/api/payment/pay","method":"POST","userId":"u-1","paymentMethod":"CARD","amount":13.37,"orderId":"ORD-AAAAAAAA","header":{"name":"x-t","value":"v"},"nth":3,"every":2,"calls":{"from":2,"to":4},"from":1700000000000,"until":1700000060000,"forMs":30000,"probability":0.5,"times":5},"then":{"kind":"decline","code":"lost_card"}},{"when":{"every":2},"then":{"kind":"network","fault":"reset","phase":"response"}},{"when":{"probability":0.3},"then":{"kind":"http","status":429,"retryAfter":3}},{"then":{"kind":"timeout","afterMs":10}},{"then":{"kind":"processor_error","status":502}},{"when":{"route":"order"},"then":{"kind":"delay","ms":5}},{"when":{"nth":7},"then":{"kind":"network","fault":"hang"}},{"name":"c","when":{"paymentMethod":"WALLET_A"},"then":{"kind":"challenge","outcome":"fail","afterMs":5,"code":"do_not_honor"}},{"when":{"every":3},"then":{"kind":"challenge"}},{"when":{"amount":13.37},"then":{"kind":"pending","forMs":30000,"outcome":"fail","code":"insufficient_funds"}},{"when":{"nth":2},"then":{"kind":"reversal","afterMs":60000,"code":"fraudulent"}},{"name":"d","when":{"event":"payment.*","userId":"u-1","nth":2},"then":{"kind":"reorder","hold":3,"order":"shuffle"}},{"when":{"event":"order.paid"},"then":{"kind":"duplicate","times":3}},{"then":{"kind":"drop","attempts":2}}]}"#
            .to_owned(),
    );
    seeds
}

/// A damaged copy of `text`: a few bytes replaced by JSON's own.
fn damaged(rng: &mut Rng, text: &str) -> Vec<u8> {
    let mut bytes = text.as_bytes().to_vec();
    for _ in 0..1 + rng.below(3) {
        let at = rng.below(bytes.len() as u64) as usize;
        bytes[at] = b"0123456789-.e\"{}[],:ntf x"[rng.below(25) as usize];
    }
    bytes
}

/// Requests under a scenario: each answered with a status the service or
/// a scenario gives (a pay's payment may wait for a challenge, pend or be
/// reversed later: the clock moves across its due time), its snapshot
/// restored continuing alike.
fn serve_under(svc: &mut Service) -> Result<(), String> {
    use orderpay::RawRequest;
    let create = r#"{"userId":"u-1","price":13.37}"#;
    for i in 0..12 {
        let r = svc.handle(RawRequest::new("POST", "/api/order/create").with_body(create));
        let id = r.body.data.as_ref().map(|_| ()).and_then(|()| {
            let v = serde_json::to_value(&r.body.data).ok()?;
            v["orderId"].as_str().map(str::to_owned)
        });
        let pay = format!(
            r#"{{"orderId":"{}","amount":13.37,"paymentMethod":"CARD"}}"#,
            id.unwrap_or_default()
        );
        let p = svc.handle(
            RawRequest::new("POST", "/api/payment/pay")
                .with_body(&pay)
                .with_header("x-t", "v"),
        );
        for status in [r.status, p.status] {
            if ![0, 200, 400, 409, 429, 502, 503, 504].contains(&status) {
                return Err(format!("request {i}: status {status}"));
            }
        }
    }
    svc.advance(61_000);
    let restored = Service::restore(&svc.snapshot(), Box::new(VirtualClock::starting_at(0)))
        .map_err(|e| format!("its own snapshot is refused: {e}"))?;
    if restored.scenario_json() != svc.scenario_json() {
        return Err("the restored scenario differs".to_owned());
    }
    Ok(())
}

#[test]
fn random_and_damaged_scenarios_never_panic_and_are_refused_naming_where() {
    let mut rng = Rng::new(0x5ce7);
    let seeds = scenario_seeds();
    let (mut accepted, mut refused) = (0, 0);
    for case in 0..cases(3_000) {
        let input = match case % 4 {
            0 => random_bytes(&mut rng, 120),
            _ => damaged(&mut rng, &seeds[case as usize % seeds.len()]),
        };
        let Ok(text) = std::str::from_utf8(&input) else {
            continue;
        };
        let mut svc = Service::new(
            orderpay::Settings::with_seed(case),
            Box::new(VirtualClock::starting_at(1_700_000_000_000)),
        )
        .expect("settings");
        // The header refuses what the service refuses, naming itself.
        let header = svc.handle(
            orderpay::RawRequest::new("GET", "/api/order/ORD-AAAAAAAA")
                .with_header("X-Orderpay-Scenario", text),
        );
        match svc.set_scenario(Some(text)) {
            Ok(()) => {
                accepted += 1;
                if let Err(broken) = serve_under(&mut svc) {
                    panic!("case {case}: accepted {text}\nbut {broken}");
                }
            }
            Err(refusal) => {
                refused += 1;
                let named = refusal
                    .msg
                    .strip_prefix("scenario: ")
                    .is_some_and(|rest| !rest.is_empty());
                assert!(
                    named,
                    "case {case}: {text}\nrefused without naming: {}",
                    refusal.msg
                );
                // Over HTTP a header holds no line break: those texts are
                // a header's problem before they are a scenario's.
                if !text.contains(['\n', '\r']) && !text.trim().is_empty() {
                    assert_eq!(header.status, 400, "case {case}: {text}");
                    assert!(
                        header.body.msg.starts_with("X-Orderpay-Scenario: "),
                        "{}",
                        header.body.msg
                    );
                }
                assert_eq!(svc.scenario_json(), "null");
            }
        }
    }
    assert!(
        accepted > 50 && refused > 500,
        "accepted {accepted}, refused {refused}"
    );
}
