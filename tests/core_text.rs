//! The JSON texts the server sends as they are (`/logs`, `/spans` of one
//! trace, the live stream's pages): each is what the whole log's or all
//! spans' text holds of it, and a trace id the service never gives finds
//! nothing to filter by.

mod common;

use common::*;
use orderpay::observe::TraceId;
use serde_json::Value;

const TRACE: &str = "463ac35c9f6413ad48485a3953bb6124";
const TRACE_64: &str = "463ac35c9f6413ad";

fn parse(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

/// A service with spans of three traces: TRACE, TRACE_64 and fresh ones.
fn traced() -> orderpay::Service {
    let mut svc = service(7);
    for trace in [TRACE, TRACE_64, TRACE] {
        let order = create_order_id(&mut svc);
        svc.handle(pay_request(&order, 1.0, "card").with_header("X-B3-TraceId", trace));
    }
    svc
}

#[test]
fn one_traces_spans_are_those_of_all_spans_with_its_id() {
    let svc = traced();
    let all = parse(&svc.spans_json());
    for id in [TRACE, TRACE_64] {
        let trace = TraceId::parse(id).expect("a trace id");
        let text = svc.journal().trace_spans_json(trace);
        let mine: Vec<&Value> = all
            .as_array()
            .unwrap()
            .iter()
            .filter(|s| s["traceId"] == id)
            .collect();
        assert!(!mine.is_empty(), "no span of {id}");
        assert_eq!(
            parse(&text),
            Value::Array(mine.into_iter().cloned().collect())
        );
    }
    // The 64-bit id is not the 128-bit one's low half, nor the reverse.
    let other = TraceId::parse("0000000000000000463ac35c9f6413ad").expect("a trace id");
    assert_eq!(svc.journal().trace_spans_json(other), "[]");
}

#[test]
fn the_all_zero_trace_id_and_other_ids_never_given_are_refused() {
    for bad in [
        "0000000000000000",
        "00000000000000000000000000000000",
        "",
        "XYZ",
        "463AC35C9F6413AD",
        "463ac35c9f6413a",
    ] {
        assert_eq!(TraceId::parse(bad), None, "{bad:?}");
    }
}

#[test]
fn pages_of_the_log_join_into_its_text() {
    let svc = traced();
    let whole = parse(&svc.logs_json(None));
    let count = whole.as_array().unwrap().len();
    assert!(count > 7);
    let mut after = 0;
    let mut joined = Vec::new();
    loop {
        let (n, last, text) = svc.journal().records_page_json(Some(after), 4);
        let page = parse(&text);
        assert_eq!(page.as_array().unwrap().len(), n);
        assert!(n <= 4);
        let Some(last) = last else {
            assert_eq!(n, 0);
            break;
        };
        assert_eq!(page[n - 1]["seq"], last);
        // Byte for byte the start of what `logs()` writes after the same seq.
        let open = text.strip_suffix(']').expect("an array");
        assert!(svc.logs_json(Some(after)).starts_with(open));
        joined.extend(page.as_array().unwrap().iter().cloned());
        after = last;
    }
    assert_eq!(Value::Array(joined), whole);
}
