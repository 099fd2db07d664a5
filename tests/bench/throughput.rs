//! Native throughput of the core on the same workload as tests/bench/run.mjs
//! runs in WebAssembly, so the two can be compared in one run. Prints one
//! JSON line; run through `node tests/bench/run.mjs`, or `cargo bench`.
//! Arguments: the number of clients (20000) and of rounds (3, the best
//! counts); `tests/bench/instructions.sh` runs one round under callgrind.
//! With `BENCH_SCENARIO` set to a file (tests/bench/scenario-20.json) or a
//! preset's name, every service runs under that scenario.

use std::time::Instant;

use orderpay::sim::clock::VirtualClock;
use orderpay::{Data, RawRequest, Service, Settings};

// `client`: the typical flow of one simulated client, the same requests
// the WebAssembly module runs in `benchTypicalFlow` (tests/bench/core-wasm.mjs).
include!("typical_flow.rs");

fn main() {
    let clients: u32 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(20_000);
    let rounds: u32 = std::env::args()
        .nth(2)
        .and_then(|a| a.parse().ok())
        .unwrap_or(3);
    let mut best = f64::MAX;
    let mut requests = 0;
    for _ in 0..rounds {
        let mut service = Service::new(
            Settings::with_seed(1),
            Box::new(VirtualClock::starting_at(0)),
        )
        .expect("settings");
        if let Ok(scenario) = std::env::var("BENCH_SCENARIO") {
            let text = std::fs::read_to_string(&scenario).unwrap_or(scenario);
            service.set_scenario(Some(&text)).expect("a valid scenario");
        }
        let start = Instant::now();
        requests = (0..clients).map(|n| client(&mut service, n)).sum::<u32>();
        best = best.min(start.elapsed().as_secs_f64());
    }
    println!(
        "{{\"runtime\":\"native\",\"clients\":{clients},\"requests\":{requests},\"seconds\":{best:.4},\"requestsPerSecond\":{:.0}}}",
        f64::from(requests) / best
    );
}
