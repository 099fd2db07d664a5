//! Native timings of the test-data endpoint and of every read and export
//! at two journal sizes, so their time per record can be compared: prints
//! one JSON line per measurement (for `logs()`, `spans()` and
//! `exportOtlp()`, also the tape the JS layer builds their objects from).
//! `cargo bench --bench reads`.

use std::time::Instant;

use orderpay::sim::clock::VirtualClock;
use orderpay::{RawRequest, Service, Settings};

/// A read to time, by name; it returns the size of what it made.
type Read<'a> = (&'static str, Box<dyn Fn() -> usize + 'a>);

fn best_ms(mut run: impl FnMut() -> usize) -> (f64, usize) {
    let mut best = f64::MAX;
    let mut size = 0;
    for _ in 0..3 {
        let start = Instant::now();
        size = run();
        best = best.min(start.elapsed().as_secs_f64() * 1000.0);
    }
    (best, size)
}

fn full(records: usize) -> Service {
    let mut settings = Settings::with_seed(1);
    settings.log_capacity = records;
    let mut service =
        Service::new(settings, Box::new(VirtualClock::starting_at(0))).expect("settings");
    while service.journal().len() + service.journal().dropped() as usize <= records {
        service.handle(RawRequest::new("GET", "/api/test/order/batch?count=1000"));
    }
    service
}

/// One call of the test-data endpoint on a fresh service, for
/// `tests/bench/testdata-instructions.sh` to count under callgrind.
fn test_data_once(count: u32) {
    let mut service = Service::new(
        Settings::with_seed(1),
        Box::new(VirtualClock::starting_at(0)),
    )
    .expect("settings");
    let path = format!("/api/test/order/batch?count={count}");
    let r = service.handle(RawRequest::new("GET", &path));
    println!(
        "{{\"what\":\"test data\",\"count\":{count},\"code\":{}}}",
        r.body.code
    );
}

fn main() {
    // `cargo bench --bench reads -- NAME SIZE` times only the reads whose
    // name holds NAME, at SIZE records (for a profiler such as callgrind);
    // `testdata N`: only one test-data call of count N.
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    if let (Some("testdata"), Some(count)) = (args.first().map(String::as_str), args.get(1)) {
        test_data_once(count.parse().expect("a count"));
        return;
    }
    let only = args.first().cloned();
    let sizes: Vec<usize> = match args.get(1).and_then(|n| n.parse().ok()) {
        Some(n) => vec![n],
        None => vec![10_000, 100_000],
    };
    if only.is_some() {
        return reads(&sizes, only.as_deref());
    }
    let (ms, _) = best_ms(|| {
        let mut service = Service::new(
            Settings::with_seed(1),
            Box::new(VirtualClock::starting_at(0)),
        )
        .expect("settings");
        let r = service.handle(RawRequest::new("GET", "/api/test/order/batch?count=10000"));
        r.body.code as usize
    });
    println!("{{\"what\":\"test data count=10000\",\"ms\":{ms:.2}}}");
    reads(&sizes, None);
}

fn reads(sizes: &[usize], only: Option<&str>) {
    for &records in sizes {
        let service = full(records);
        let half = service.journal().next_seq() - records as u64 / 2;
        let snapshot = service.snapshot();
        let reads: [Read; 10] = [
            ("logs()", Box::new(|| service.logs_json(None).len())),
            (
                "logs() tape",
                Box::new(|| service.logs_tape(None).numbers.len()),
            ),
            (
                "spans() tape",
                Box::new(|| service.spans_tape().numbers.len()),
            ),
            (
                "exportOtlp() tape",
                Box::new(|| service.otlp_tape().numbers.len()),
            ),
            (
                "logs(after)",
                Box::new(|| service.logs_json(Some(half)).len()),
            ),
            ("spans()", Box::new(|| service.spans_json().len())),
            ("exportNdjson()", Box::new(|| service.export_ndjson().len())),
            (
                "exportOtlp()",
                Box::new(|| service.export_otlp_json().len()),
            ),
            ("snapshot()", Box::new(|| service.snapshot().len())),
            (
                "restore()",
                Box::new(|| {
                    Service::restore(&snapshot, Box::new(VirtualClock::starting_at(0)))
                        .map(|s| s.journal().len())
                        .unwrap_or(0)
                }),
            ),
        ];
        for (name, read) in reads {
            if only.is_some_and(|only| !name.contains(only)) {
                continue;
            }
            let (ms, bytes) = best_ms(read);
            println!(
                "{{\"what\":\"{name}\",\"records\":{records},\"ms\":{ms:.2},\"usPerRecord\":{:.3},\"bytes\":{bytes}}}",
                ms * 1000.0 / records as f64
            );
        }
    }
}
