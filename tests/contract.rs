//! The README's contract, claim by claim: where it quotes a message, a
//! limit, a default or a range, the value is read out of README.md and
//! checked against the code (its constants, or the service's answer), so
//! the two cannot drift apart. The decisions on edge cases the README
//! states are tested here too.

mod common;

use common::*;
use orderpay::RawRequest;

#[test]
fn traceparent_flags_must_be_two_hex_digits() {
    let mut svc = service(1);
    let parent = "00f067aa0ba902b7";
    let trace = "4bf92f3577b34da6a3ce929d0e0e4736";
    for (flags, honoured) in [
        ("01", true),
        ("00", true),
        ("+1", false),
        ("0x", false),
        ("1", false),
        ("0A", false),
    ] {
        let header = format!("00-{trace}-{parent}-{flags}");
        let response =
            svc.handle(get("/api/order/ORD-NOPE0000").with_header("traceparent", &header));
        assert_eq!(trace_of(&response) == trace, honoured, "flags {flags:?}");
    }
}

#[test]
fn a_duplicate_key_that_is_not_a_plain_word_is_quoted_in_the_msg() {
    let mut svc = service(1);
    let msg = |svc: &mut orderpay::Service, body: &str| {
        svc.handle(post_text("/api/order/create", body)).body.msg
    };
    assert_eq!(
        msg(&mut svc, r#"{"":1,"":2,"userId":"u","price":1}"#),
        r#""": given more than once in the body"#
    );
    assert_eq!(
        msg(&mut svc, r#"{"a: b":1,"a: b":2}"#),
        r#""a: b": given more than once in the body"#
    );
    assert_eq!(
        msg(&mut svc, r#"{"userId":"u","userId":"v","price":1}"#),
        "userId: given more than once in the body"
    );
}

#[test]
fn a_method_that_is_not_letters_only_is_a_400_even_with_only_spaces_around() {
    let mut svc = service(1);
    for method in [" GET", "GET ", "POST\n", "\tGET", "G ET", "GET1", ""] {
        let response = svc.handle(RawRequest::new(method, "/api/order/ORD-NOPE0000"));
        assert_eq!(response.status, 400, "{method:?}");
        assert!(
            response
                .body
                .msg
                .starts_with("method: must be an HTTP method such as GET or POST, got "),
            "{method:?}: {}",
            response.body.msg
        );
    }
    for method in ["get", "Get", "GET"] {
        let response = svc.handle(RawRequest::new(method, "/api/order/ORD-NOPE0000"));
        assert_eq!(response.body.msg, "Order not found", "{method:?}");
    }
}
