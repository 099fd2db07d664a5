//! The incremental forms: a snapshot, NDJSON and OTLP written in pieces,
//! and a restore fed in pieces. Joined, the pieces are the one-shot text
//! byte for byte, whatever the service serves between them; a restore in
//! pieces makes the same service as the one-shot restore, and refuses a
//! damaged snapshot with the same message, whichever piece holds the
//! damage.

use orderpay::service::{Pieces, Restoring};
use orderpay::sim::clock::VirtualClock;
use orderpay::sim::invalid::Invalid;
use orderpay::sim::third_party::Forced;
use orderpay::{RawRequest, Service, Settings};
use serde_json::Value;

const T0: i64 = 1_700_000_000_000;

fn clock() -> Box<VirtualClock> {
    Box::new(VirtualClock::starting_at(T0))
}

/// A service with orders, payments (paid, refunded, declined), a log that
/// has dropped records, a pending forced outcome and a virtual clock.
fn busy_service(log_capacity: usize, batches: u32) -> Service {
    busy_service_of(log_capacity, batches, 40)
}

fn busy_service_of(log_capacity: usize, batches: u32, orders_a_batch: u32) -> Service {
    let mut settings = Settings::with_seed(7);
    settings.log_capacity = log_capacity;
    let mut s = Service::new(settings, clock()).unwrap_or_else(|e| panic!("{e}"));
    for _ in 0..batches {
        let batch = format!("/api/test/order/batch?count={orders_a_batch}");
        s.handle(RawRequest::new("GET", &batch));
    }
    let created = s.handle(
        RawRequest::new("POST", "/api/order/create")
            .with_header("X-User-Id", "u-\u{e9}\u{1F600}")
            .with_body(r#"{"userId":"u-\"q\"","price":12.5,"description":"tea \\ \u00e9"}"#),
    );
    let order = serde_json::to_value(&created.body.data).unwrap_or_default()["orderId"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    let pay = format!(r#"{{"orderId":"{order}","amount":12.5,"paymentMethod":"CARD"}}"#);
    s.handle(
        RawRequest::new("POST", "/api/payment/pay")
            .with_header("X-Sim-Outcome", "failure")
            .with_body(&pay),
    );
    s.handle(
        RawRequest::new("POST", "/api/payment/pay")
            .with_header("X-Sim-Outcome", "success")
            .with_body(&pay),
    );
    s.handle(RawRequest::new(
        "POST",
        &format!("/api/order/delete/{order}"),
    ));
    s.force_next(Forced::Failure, 3);
    s
}

fn joined(mut pieces: Pieces, size: usize) -> (String, usize) {
    let (mut text, mut count) = (String::new(), 0);
    let mut last_progress = 0.0;
    while let Some(piece) = pieces.next(size) {
        let progress = pieces.progress();
        assert!(progress >= last_progress && progress <= 1.0, "{progress}");
        last_progress = progress;
        text.push_str(&piece);
        count += 1;
    }
    assert_eq!(pieces.progress(), 1.0);
    assert_eq!(pieces.next(size), None, "a finished cursor stays finished");
    (text, count)
}

#[test]
fn pieces_joined_are_the_one_shot_texts_byte_for_byte() {
    let s = busy_service(500, 8);
    assert!(s.journal().dropped() > 0);
    for size in [1, 100, 4096, 65536, usize::MAX] {
        let (text, count) = joined(s.snapshot_pieces(), size);
        assert_eq!(text, s.snapshot(), "snapshot, size {size}");
        if size == 1 {
            // Every order, payment, record and span is a piece of its own.
            let rows = s.orders().len() + s.payments().len() + 2 * s.journal().len();
            assert!(count >= rows, "{count} pieces for {rows} rows");
        }
        let (text, _) = joined(s.ndjson_pieces(), size);
        assert_eq!(text, s.export_ndjson(), "ndjson, size {size}");
        let (text, _) = joined(s.otlp_pieces(), size);
        assert_eq!(text, s.export_otlp_json(), "otlp, size {size}");
    }
}

#[test]
fn each_piece_holds_at_least_its_size_but_the_last() {
    let s = busy_service(300, 4);
    for (open, rows_only) in [
        (Service::snapshot_pieces as fn(&Service) -> Pieces, false),
        (Service::ndjson_pieces, true),
        (Service::otlp_pieces, true),
    ] {
        let mut pieces = open(&s);
        let mut all = Vec::new();
        while let Some(piece) = pieces.next(2000) {
            all.push(piece);
        }
        assert!(all.len() > 3, "{} pieces", all.len());
        let (last, rest) = all.split_last().unwrap_or_else(|| unreachable!());
        assert!(rest.iter().all(|p| p.len() >= 2000));
        assert!(!last.is_empty());
        if rows_only {
            // A piece ends after the row that filled it, and no record or
            // span is anywhere near 2000 bytes.
            assert!(rest.iter().all(|p| p.len() < 4000));
        }
    }
}

#[test]
fn an_empty_service_is_written_in_pieces_too() {
    let s = Service::new(Settings::with_seed(1), clock()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(joined(s.snapshot_pieces(), 1).0, s.snapshot());
    assert_eq!(joined(s.otlp_pieces(), 1).0, s.export_otlp_json());
    assert_eq!(joined(s.ndjson_pieces(), 1), (String::new(), 0));
}

#[test]
fn requests_served_between_pieces_do_not_tear_them() {
    let mut s = busy_service(300, 4);
    let (snapshot, ndjson, otlp) = (s.snapshot(), s.export_ndjson(), s.export_otlp_json());
    let mut cursors = [s.snapshot_pieces(), s.ndjson_pieces(), s.otlp_pieces()];
    let mut texts = [String::new(), String::new(), String::new()];
    let mut round = 0;
    loop {
        let mut any = false;
        for (cursor, text) in cursors.iter_mut().zip(texts.iter_mut()) {
            if let Some(piece) = cursor.next(3000) {
                text.push_str(&piece);
                any = true;
            }
        }
        if !any {
            break;
        }
        // Between pieces: new orders and payments, records dropped from
        // the front of the log, the log emptied, a forced outcome used.
        round += 1;
        s.handle(RawRequest::new("GET", "/api/test/order/batch?count=20"));
        if round % 5 == 0 {
            s.clear_logs();
        }
    }
    assert!(round > 10, "{round} rounds");
    assert_ne!(s.snapshot(), snapshot, "the service moved on");
    assert_eq!(texts, [snapshot, ndjson, otlp]);
}

/// Feeds `text` in pieces of about `size` bytes, split anywhere but inside
/// a character, then finishes.
fn restore_in_pieces(text: &str, size: usize) -> Result<Service, Invalid> {
    let mut restoring = Restoring::new();
    let mut from = 0;
    while from < text.len() {
        let mut to = (from + size).min(text.len());
        while !text.is_char_boundary(to) {
            to += 1;
        }
        restoring.push(&text[from..to])?;
        from = to;
    }
    restoring.finish(clock())
}

#[test]
fn a_restore_in_pieces_makes_the_same_service() {
    let s = busy_service(400, 6);
    let snapshot = s.snapshot();
    for size in [1, 2, 3, 17, 1000, usize::MAX] {
        let mut restored =
            restore_in_pieces(&snapshot, size).unwrap_or_else(|e| panic!("size {size}: {e}"));
        assert_eq!(restored.snapshot(), snapshot, "size {size}");
        let mut original = Service::restore(&snapshot, clock()).unwrap_or_else(|e| panic!("{e}"));
        let next = RawRequest::new("GET", "/api/test/order/batch?count=5");
        assert_eq!(
            serde_json::to_string(&original.handle(next.clone()).body).ok(),
            serde_json::to_string(&restored.handle(next).body).ok()
        );
        assert_eq!(original.snapshot(), restored.snapshot());
    }
}

#[test]
fn pieces_of_a_snapshot_written_in_pieces_restore_as_they_come() {
    let s = busy_service(400, 6);
    let mut pieces = s.snapshot_pieces();
    let mut restoring = Restoring::new();
    while let Some(piece) = pieces.next(500) {
        restoring.push(&piece).unwrap_or_else(|e| panic!("{e}"));
    }
    let restored = restoring.finish(clock()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(restored.snapshot(), s.snapshot());
}

fn outcome(result: Result<Service, Invalid>) -> Result<String, (String, String)> {
    result
        .map(|s| s.snapshot())
        .map_err(|e| (format!("{:?}", e.kind), e.msg))
}

/// Under `v` (at `at` in `root`), each child replaced by each damaging
/// value and removed, then the same under it.
fn damage_under(v: &Value, at: &mut Vec<Value>, root: &Value, out: &mut Vec<String>) {
    let bad = [
        Value::Null,
        Value::from("x"),
        Value::from(-1),
        Value::from(1.5),
        Value::from(u64::MAX),
        Value::Array(Vec::new()),
    ];
    let children: Vec<(Value, &Value)> = match v {
        Value::Object(map) => map
            .iter()
            .map(|(k, c)| (Value::from(k.clone()), c))
            .collect(),
        Value::Array(items) => items
            .iter()
            .enumerate()
            .take(3)
            .map(|(i, c)| (Value::from(i), c))
            .collect(),
        _ => return,
    };
    for (step, child) in children {
        at.push(step);
        for with in bad.iter().map(Some).chain([None]) {
            out.push(replaced(root, at, with).to_string());
        }
        damage_under(child, at, root, out);
        at.pop();
    }
}

/// A copy of `root` with the value at `at` replaced by `with`, or removed.
fn replaced(root: &Value, at: &[Value], with: Option<&Value>) -> Value {
    let mut copy = root.clone();
    let Some((last, parents)) = at.split_last() else {
        return copy;
    };
    let mut node = &mut copy;
    for step in parents {
        node = match step {
            Value::String(k) => &mut node[k.as_str()],
            _ => &mut node[step.as_u64().unwrap_or(0) as usize],
        };
    }
    match (last, with, node) {
        (Value::String(k), Some(w), Value::Object(map)) => {
            map.insert(k.clone(), w.clone());
        }
        (Value::String(k), None, Value::Object(map)) => {
            map.remove(k);
        }
        (i, Some(w), Value::Array(items)) => items[i.as_u64().unwrap_or(0) as usize] = w.clone(),
        (i, None, Value::Array(items)) => {
            items.remove(i.as_u64().unwrap_or(0) as usize);
        }
        _ => {}
    }
    copy
}

/// Every leaf of the snapshot's JSON, replaced by each of a few damaging
/// values or removed.
fn damaged(snapshot: &str) -> Vec<String> {
    let root: Value = serde_json::from_str(snapshot).unwrap_or_default();
    let mut out = Vec::new();
    damage_under(&root, &mut Vec::new(), &root, &mut out);
    out
}

#[test]
fn damage_anywhere_is_refused_in_pieces_as_in_one_go() {
    let s = busy_service_of(6, 1, 3);
    let variants = damaged(&s.snapshot());
    assert!(variants.len() > 500, "{} variants", variants.len());
    let mut refused = 0;
    for (n, text) in variants.iter().enumerate() {
        let whole = outcome(Service::restore(text, clock()));
        refused += usize::from(whole.is_err());
        let one_byte = if n % 10 == 0 { 1 } else { 3 };
        for size in [one_byte, 29, 400] {
            assert_eq!(
                outcome(restore_in_pieces(text, size)),
                whole,
                "size {size}: {text}"
            );
        }
    }
    assert!(refused * 2 > variants.len(), "{refused} refused");
}

#[test]
fn broken_text_is_refused_in_pieces_as_in_one_go() {
    let s = busy_service_of(6, 1, 3);
    let snapshot = s.snapshot();
    let bytes = snapshot.as_bytes();
    let mut cases = vec![
        String::new(),
        "[]".to_owned(),
        "{".to_owned(),
        " {} x".to_owned(),
    ];
    // Cut short at every length, and one byte spoiled at many places.
    for at in (0..bytes.len()).step_by(3) {
        if snapshot.is_char_boundary(at) {
            cases.push(snapshot[..at].to_owned());
            let mut spoiled = snapshot.clone();
            if spoiled.is_char_boundary(at + 1) {
                spoiled.replace_range(at..at + 1, "#");
                cases.push(spoiled);
            }
        }
    }
    cases.push(format!("{snapshot} "));
    cases.push(format!("{snapshot}{{}}"));
    for text in &cases {
        let whole = outcome(Service::restore(text, clock()));
        for size in [1, 5, 64] {
            assert_eq!(
                outcome(restore_in_pieces(text, size)),
                whole,
                "size {size}: {text}"
            );
        }
    }
}

#[test]
fn a_refused_piece_leaves_nothing_behind_and_the_next_restore_starts_clean() {
    let s = busy_service(50, 2);
    let snapshot = s.snapshot();
    let spoiled = snapshot.replacen("\"seq\":", "\"seq\":\"x\",\"y\":", 1);
    let error = restore_in_pieces(&spoiled, 64)
        .err()
        .unwrap_or_else(|| panic!("accepted"));
    assert!(error.msg.starts_with("snapshot.journal"), "{}", error.msg);
    let again = restore_in_pieces(&snapshot, 64).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(again.snapshot(), snapshot);
}

/// The reading's refusal (the first step after the last piece): `Ok` once
/// the text has been read into parts.
fn read_in_steps(text: &str) -> Result<(), (String, String)> {
    let mut restoring = Restoring::new();
    restoring
        .push(text)
        .and_then(|()| restoring.step().map(drop))
        .map_err(|e| (format!("{:?}", e.kind), e.msg))
}

#[test]
fn the_lists_read_as_they_come_are_refused_as_the_tree_reader_refuses_them() {
    // orders.live, deleted and made, payments.by_id and attempts, the
    // journal's records and spans: each read member by member as the text
    // comes, against the reader of the whole parsed tree.
    let s = busy_service_of(6, 1, 3);
    let variants = damaged(&s.snapshot());
    let mut refused = 0;
    for text in &variants {
        let tree = orderpay::service::snapshot::read(text)
            .map(drop)
            .map_err(|e| (format!("{:?}", e.kind), e.msg));
        refused += usize::from(tree.is_err());
        assert_eq!(read_in_steps(text), tree, "{text}");
    }
    assert!(refused * 4 > variants.len(), "{refused} refused");
}

#[test]
fn a_restore_finished_in_steps_checks_as_finish_does() {
    let s = busy_service_of(6, 1, 3);
    for text in damaged(&s.snapshot()).iter().step_by(7) {
        let whole = outcome(Service::restore(text, clock()));
        let mut restoring = Restoring::new();
        let stepped = restoring.push(text).and_then(|()| {
            while !restoring.step()? {}
            assert!(restoring.step()?, "done stays done");
            Ok(())
        });
        let stepped = stepped.and_then(|()| restoring.finish(clock()));
        assert_eq!(outcome(stepped), whole, "{text}");
    }
}

#[test]
fn a_refused_step_ends_the_restore_and_no_piece_follows_a_step() {
    let s = busy_service_of(6, 1, 3);
    let snapshot = s.snapshot();
    let mut refused = Restoring::new();
    let damaged = snapshot.replacen("\"failureRate\":0.3", "\"failureRate\":2", 1);
    assert_ne!(damaged, snapshot);
    // Refused by the checks (the settings' step), after the reading's.
    let step = refused.push(&damaged).and_then(|()| {
        while !refused.step()? {}
        Ok(())
    });
    let Err(first) = step else {
        panic!("a failure rate of 2 is refused")
    };
    assert!(first.msg.contains("failureRate"), "{}", first.msg);
    for again in [refused.step().map(drop), refused.push("x")] {
        let Err(e) = again else {
            panic!("the restore is over")
        };
        assert!(e.msg.contains("this restore is over"), "{}", e.msg);
    }
    let mut stepped = Restoring::new();
    stepped.push(&snapshot).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(stepped.step().ok(), Some(false));
    let Err(late) = stepped.push(" ") else {
        panic!("no piece after a step")
    };
    assert!(late.msg.contains("no more may come"), "{}", late.msg);
    let restored = stepped.finish(clock()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(restored.snapshot(), snapshot);
}

#[test]
fn a_repeated_part_or_list_is_read_at_its_first_place_by_every_reader() {
    // A long list's rows are read only as the text comes, by the row
    // readers; the reader of the small members takes a list that was not
    // read as empty. So a repeated list (or part holding lists) must be
    // read, and refused, at its first place, as the parsed tree's reader
    // takes the first of a name; a later one is passed over whatever it
    // holds. One call, in pieces and the tree's reader agree on each.
    let s = busy_service_of(6, 1, 3);
    let snapshot = s.snapshot();
    let orders_end = snapshot.find("},\"payments\":").unwrap_or(0);
    let payments_end = snapshot.find("},\"journal\":").unwrap_or(0);
    let journal_end = snapshot.find("},\"forced_next\":").unwrap_or(0);
    let top_end = snapshot.len() - 1;
    let repeated = [
        ("live", '{', orders_end),
        ("deleted", '[', orders_end),
        ("made", '{', orders_end),
        ("by_id", '{', payments_end),
        ("attempts", '{', payments_end),
        ("records", '[', journal_end),
        ("spans", '[', journal_end),
        ("orders", '{', top_end),
        ("payments", '{', top_end),
        ("journal", '{', top_end),
    ];
    let agree = |text: &str| {
        let whole = outcome(Service::restore(text, clock()));
        assert_eq!(outcome(restore_in_pieces(text, 7)), whole, "{text}");
        let tree = orderpay::service::snapshot::read(text)
            .map(drop)
            .map_err(|e| (format!("{:?}", e.kind), e.msg));
        assert_eq!(read_in_steps(text), tree, "{text}");
        whole
    };
    for (name, opener, end) in repeated {
        let first = snapshot
            .find(&format!("\"{name}\":{opener}"))
            .unwrap_or_else(|| panic!("{name}"));
        assert!(0 < first && first < end, "{name}");
        let bad_rows = match opener {
            '[' => "[7]",
            _ => r#"{"ORD-X":7,"live":7,"by_id":7,"records":7}"#,
        };
        for value in ["5", bad_rows] {
            let before = format!(
                "{}\"{name}\":{value},{}",
                &snapshot[..first],
                &snapshot[first..]
            );
            assert!(agree(&before).is_err(), "{before}");
            let after = format!(
                "{},\"{name}\":{value}{}",
                &snapshot[..end],
                &snapshot[end..]
            );
            assert_eq!(agree(&after), Ok(snapshot.clone()), "{after}");
        }
    }
}
