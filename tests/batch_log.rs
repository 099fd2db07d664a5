//! Test data with a log shorter than what a run writes: the records and
//! spans of the orders that later ones of the same run push out are never
//! made (src/service/testdata.rs), and the log comes out as if they had
//! been: the same last records and spans, the same counts.

mod common;

use common::*;
use orderpay::{Service, Settings};

/// A service with `capacity`, a few requests of its own, then test data.
fn after_test_data(capacity: usize, count: u32, max_orders: usize) -> Service {
    let mut settings = Settings::with_seed(7);
    settings.log_capacity = capacity;
    settings.max_orders = max_orders;
    let mut svc = service_with(settings);
    // Records from before the run, which it must push out as well.
    let id = create_order_id(&mut svc);
    svc.handle(get(&format!("/api/order/{id}")));
    svc.handle(get(&format!("/api/test/order/batch?count={count}")));
    svc
}

#[test]
fn a_short_log_after_test_data_holds_the_last_records_and_spans_of_a_long_one() {
    let cases = [
        (37, 100),
        (36, 100),
        (40, 8),
        (5, 3),
        (0, 20),
        (1, 40),
        (50, 10),
    ];
    for (capacity, count) in cases {
        for max_orders in [1_000_000, 1 + count as usize, count as usize] {
            let long = after_test_data(100_000, count, max_orders);
            let short = after_test_data(capacity, count, max_orders);
            let (long, short) = (long.journal(), short.journal());
            let case = format!("capacity {capacity}, count {count}, maxOrders {max_orders}");
            let kept = long.len().min(capacity);
            let records: Vec<_> = long.entries(None).skip(long.len() - kept).collect();
            assert_eq!(short.entries(None).collect::<Vec<_>>(), records, "{case}");
            let all_spans = long.span_entries().len();
            let spans: Vec<_> = long
                .span_entries()
                .skip(all_spans - all_spans.min(capacity))
                .collect();
            assert_eq!(short.span_entries().collect::<Vec<_>>(), spans, "{case}");
            assert_eq!(short.dropped(), (long.len() - kept) as u64, "{case}");
            assert_eq!(short.next_seq(), long.next_seq(), "{case}");
            assert_eq!(long.dropped(), 0, "{case}");
        }
    }
}
