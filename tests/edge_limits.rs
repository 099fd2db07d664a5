//! The limits a server enforces before it reads anything, as a binding
//! meets them: a body's size on every route, bytes that are not UTF-8 where
//! nobody reads them, and headers too many or too large to bring in.

mod common;

use common::*;
use orderpay::gateway::request::{Text, MAX_BODY_BYTES, MAX_HEADER_BYTES, MAX_HEADER_COUNT};
use orderpay::RawRequest;

fn status_code_msg(svc: &mut orderpay::Service, req: RawRequest) -> (u16, i32, String) {
    let r = svc.handle(req);
    (r.status, r.body.code, r.body.msg)
}

#[test]
fn a_body_over_the_limit_is_413_on_a_read_too_given_as_text_or_measured() {
    let mut svc = service(1);
    let order = create_order_id(&mut svc);
    let text = "x".repeat(MAX_BODY_BYTES + 1);
    let msg = format!(
        "body: {} bytes is over the limit of {MAX_BODY_BYTES} bytes",
        MAX_BODY_BYTES + 1
    );
    let given = get(&format!("/api/order/{order}")).with_body(&text);
    assert_eq!(status_code_msg(&mut svc, given), (413, 413, msg.clone()));
    let mut measured = get(&format!("/api/order/{order}"));
    measured.body = Some(Text::TooLarge {
        bytes: MAX_BODY_BYTES + 1,
    });
    assert_eq!(status_code_msg(&mut svc, measured), (413, 413, msg));
    // A body within the limit is still ignored by a read.
    let small = get(&format!("/api/order/{order}")).with_body("not json at all");
    assert_eq!(status_code_msg(&mut svc, small).0, 200);
}

#[test]
fn a_body_a_server_stopped_reading_is_413_naming_what_the_server_knows_in_answer_and_log() {
    let mut svc = service(3);
    let mut declared = post("/api/order/create");
    declared.body = Some(Text::Unread {
        declared: Some(5_000_000),
    });
    let said = format!(
        "body: 5000000 bytes (its content-length) is over the limit of {MAX_BODY_BYTES} bytes"
    );
    assert_eq!(
        status_code_msg(&mut svc, declared),
        (413, 413, said.clone())
    );
    assert_eq!(last_response_msg(&svc), said);
    let mut stopped = get("/api/order/ORD-NOPE0000");
    stopped.body = Some(Text::Unread { declared: None });
    let said = format!("body: over the limit of {MAX_BODY_BYTES} bytes; reading stopped there");
    assert_eq!(status_code_msg(&mut svc, stopped), (413, 413, said.clone()));
    assert_eq!(last_response_msg(&svc), said);
}

fn last_response_msg(svc: &orderpay::Service) -> String {
    let logs = svc.logs(None);
    match logs.last().map(|r| &r.stage) {
        Some(orderpay::observe::record::Stage::Response { msg, .. }) => msg.clone(),
        other => panic!("the last record is not a response: {other:?}"),
    }
}

#[test]
fn bytes_that_are_not_utf8_are_ignored_where_no_body_is_read_and_400_where_one_is() {
    let mut svc = service(2);
    let order = create_order_id(&mut svc);
    let mut read = get(&format!("/api/order/{order}"));
    read.body = Some(Text::NotUtf8 { bytes: 1 });
    assert_eq!(status_code_msg(&mut svc, read).0, 200);
    let mut create = post("/api/order/create");
    create.body = Some(Text::NotUtf8 { bytes: 1 });
    assert_eq!(
        status_code_msg(&mut svc, create),
        (400, 400, "body: not valid UTF-8 text".to_owned())
    );
}

#[test]
fn more_headers_than_the_count_limit_are_431_however_short() {
    let mut svc = service(3);
    let mut many = get("/api/order/ORD-AAAAAAAA");
    for _ in 0..=MAX_HEADER_COUNT {
        many = many.with_header("", "");
    }
    let msg = format!(
        "headers: {} headers is over the limit of {MAX_HEADER_COUNT} headers",
        MAX_HEADER_COUNT + 1
    );
    assert_eq!(status_code_msg(&mut svc, many), (431, 431, msg));
    let mut at_limit = get("/api/order/ORD-AAAAAAAA");
    for _ in 0..MAX_HEADER_COUNT {
        at_limit = at_limit.with_header("x-a", "b");
    }
    assert_eq!(status_code_msg(&mut svc, at_limit).0, 200);
}

#[test]
fn headers_measured_but_not_brought_in_are_431_with_their_measure() {
    let mut svc = service(4);
    let mut counted = get("/api/order/ORD-AAAAAAAA");
    counted.headers_measured = Some((10_000_000, 20_000_000));
    assert_eq!(
        status_code_msg(&mut svc, counted),
        (
            431,
            431,
            format!("headers: 10000000 headers is over the limit of {MAX_HEADER_COUNT} headers")
        )
    );
    let mut sized = get("/api/order/ORD-AAAAAAAA");
    sized.headers_measured = Some((9, 9 * 100_000));
    assert_eq!(
        status_code_msg(&mut svc, sized),
        (
            431,
            431,
            format!(
                "headers: {} bytes is over the limit of {MAX_HEADER_BYTES} bytes",
                9 * 100_000
            )
        )
    );
    // Refused requests are logged like any other: gateway and response.
    let stages: Vec<&str> = last_records(&svc, 2).iter().map(stage_name).collect();
    assert_eq!(stages, ["gateway", "response"]);
}
