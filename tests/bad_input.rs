//! Malformed input: every bad request gets its HTTP status, the same status
//! as body code, a msg naming the field, null data, and changes nothing.

mod common;

use common::*;
use orderpay::gateway::request::Text;
use orderpay::{RawRequest, Response, Service};
use serde_json::{json, Value};

const MIB: usize = 1024 * 1024;

/// A service with an order that has a payment and an unpaid order, and a
/// twin that went through exactly the same. A bad request sent to the
/// first must leave it indistinguishable from the twin.
struct Pair {
    svc: Service,
    twin: Service,
    /// The unpaid order, for pay bodies.
    order_id: String,
}

impl Pair {
    fn new() -> Pair {
        let setup = |svc: &mut Service| {
            let paid = create_order_id(svc);
            pay_ok(svc, &paid, 10.5, "CARD");
            create_order_id(svc)
        };
        let (mut svc, mut twin) = (always_approves(42), always_approves(42));
        let order_id = setup(&mut svc);
        assert_eq!(setup(&mut twin), order_id);
        Pair {
            svc,
            twin,
            order_id,
        }
    }

    fn pay_body(&self, fields: Value) -> RawRequest {
        let mut body = json!({"orderId": self.order_id, "amount": 10.5, "paymentMethod": "CARD"});
        for (k, v) in fields.as_object().unwrap() {
            body[k] = v.clone();
        }
        post_json("/api/payment/pay", &body)
    }

    /// Sends `req`, checks the refusal's shape and that nothing changed.
    fn refuse(mut self, req: RawRequest, status: u16, msg_start: &str) -> Response {
        let logs_before = self.svc.logs(None).len();
        let response = self.svc.handle(req);
        let what = format!("{} {:?}", response.status, response.body.msg);
        assert_eq!(response.status, status, "{what}");
        assert_eq!(response.body.code, i32::from(status), "{what}");
        assert!(
            response.body.msg.starts_with(msg_start),
            "{what} should start with {msg_start:?}"
        );
        assert_eq!(response.body.data, None, "{what}");
        assert_eq!(body(&response)["data"], Value::Null);
        // Logged as a client error, with no service record.
        let records = &self.svc.logs(None)[logs_before..];
        assert_eq!(
            records.iter().map(stage_name).collect::<Vec<_>>(),
            ["gateway", "response"],
            "{what}"
        );
        assert_eq!(
            serde_json::to_value(&records[1]).unwrap()["status"],
            "client_error"
        );
        // No state changed, and the next calls answer as the twin's do.
        assert_eq!(self.svc.orders(), self.twin.orders(), "{what}");
        assert_eq!(self.svc.payments(), self.twin.payments(), "{what}");
        assert_eq!((self.svc.orders().len(), self.svc.payments().len()), (2, 1));
        let next = |svc: &mut Service, order_id: &str| {
            let created = svc.handle(create_request("next", 5.0, "after"));
            let paid = svc.handle(pay_request(order_id, 10.5, "WALLET_A"));
            (created.body, paid.body)
        };
        assert_eq!(
            next(&mut self.svc, &self.order_id),
            next(&mut self.twin, &self.order_id),
            "{what}"
        );
        response
    }

    fn refuse_exactly(self, req: RawRequest, status: u16, msg: &str) -> Response {
        let response = self.refuse(req, status, msg);
        assert_eq!(response.body.msg, msg);
        response
    }
}

fn create_body(fields: Value) -> RawRequest {
    let mut body = json!({"userId": "u-1", "price": 10.5, "description": "d"});
    for (k, v) in fields.as_object().unwrap() {
        body[k] = v.clone();
    }
    post_json("/api/order/create", &body)
}

fn create_without(field: &str) -> RawRequest {
    let mut body = json!({"userId": "u-1", "price": 10.5, "description": "d"});
    body.as_object_mut().unwrap().remove(field);
    post_json("/api/order/create", &body)
}

// ------------------------------------------------------------- the body itself

#[test]
fn a_body_that_is_not_json_is_400_naming_body() {
    for text in [
        "hello",
        "{",
        "{\"userId\":\"u\",\"price\":1,}",
        "{'userId':'u'}",
        "{\"userId\":\"u\",\"price\":1} x",
        "{}{}",
        "NaN",
    ] {
        Pair::new().refuse(
            post_text("/api/order/create", text),
            400,
            "body: not valid JSON: ",
        );
        let p = Pair::new();
        p.refuse(
            post_text("/api/payment/pay", text),
            400,
            "body: not valid JSON: ",
        );
    }
}

#[test]
fn a_body_that_is_json_but_not_an_object_is_400_naming_its_type() {
    let cases = [
        ("[]", "body: expected a JSON object, got an array"),
        (
            r#"[{"userId":"u","price":1}]"#,
            "body: expected a JSON object, got an array",
        ),
        ("42", "body: expected a JSON object, got number 42"),
        ("-1.5", "body: expected a JSON object, got number -1.5"),
        (
            "\"text\"",
            "body: expected a JSON object, got string \"text\"",
        ),
        ("true", "body: expected a JSON object, got boolean true"),
        ("null", "body: expected a JSON object, got null"),
    ];
    for (text, msg) in cases {
        Pair::new().refuse_exactly(post_text("/api/order/create", text), 400, msg);
        Pair::new().refuse_exactly(post_text("/api/payment/pay", text), 400, msg);
    }
}

#[test]
fn a_missing_or_blank_body_is_400_naming_body() {
    let msg = "body: a JSON object is required, got no body";
    for path in ["/api/order/create", "/api/payment/pay"] {
        Pair::new().refuse_exactly(
            post(path).with_header("Content-Type", "application/json"),
            400,
            msg,
        );
        Pair::new().refuse_exactly(post(path), 400, msg);
        Pair::new().refuse_exactly(post_text(path, ""), 400, msg);
        Pair::new().refuse_exactly(post_text(path, "  \n\t "), 400, msg);
    }
}

#[test]
fn a_body_over_one_mebibyte_is_413() {
    let description = "x".repeat(MIB);
    let text = json!({"userId": "u", "price": 1.0, "description": description}).to_string();
    let msg = format!(
        "body: {} bytes is over the limit of {MIB} bytes",
        text.len()
    );
    Pair::new().refuse_exactly(post_text("/api/order/create", &text), 413, &msg);
    Pair::new().refuse_exactly(post_text("/api/payment/pay", &text), 413, &msg);
}

#[test]
fn a_body_one_byte_over_the_limit_is_413_and_one_at_the_limit_is_read() {
    let text = r#"{"userId":"u","price":1.5}"#;
    let at_limit = format!("{text}{}", " ".repeat(MIB - text.len()));
    assert_eq!(at_limit.len(), MIB);
    let mut svc = service(1);
    let response = svc.handle(post_text("/api/order/create", &at_limit));
    assert_eq!(
        (response.status, response.body.code),
        (200, 0),
        "{}",
        response.body.msg
    );
    let over = format!("{at_limit} ");
    let msg = format!("body: {} bytes is over the limit of {MIB} bytes", MIB + 1);
    Pair::new().refuse_exactly(post_text("/api/order/create", &over), 413, &msg);
}

#[test]
fn a_body_known_only_by_its_size_is_413() {
    let mut req = post("/api/order/create").with_header("Content-Type", "application/json");
    req.body = Some(Text::TooLarge { bytes: 50 * MIB });
    let msg = format!("body: {} bytes is over the limit of {MIB} bytes", 50 * MIB);
    Pair::new().refuse_exactly(req, 413, &msg);
}

#[test]
fn a_content_type_other_than_json_is_415() {
    for content_type in [
        "text/plain",
        "application/x-www-form-urlencoded",
        "application/xml",
        "multipart/form-data; boundary=x",
    ] {
        let body = r#"{"userId":"u","price":1}"#;
        let req = post("/api/order/create")
            .with_header("Content-Type", content_type)
            .with_body(body);
        let msg = format!("Content-Type: {content_type:?} is not supported; send application/json");
        Pair::new().refuse_exactly(req, 415, &msg);
        let p = Pair::new();
        let pay =
            json!({"orderId": p.order_id, "amount": 1.0, "paymentMethod": "CARD"}).to_string();
        let req = post("/api/payment/pay")
            .with_header("content-type", content_type)
            .with_body(&pay);
        p.refuse_exactly(req, 415, &msg);
    }
}

#[test]
fn json_content_types_in_any_case_with_parameters_or_absent_are_accepted() {
    for content_type in [
        Some("application/json"),
        Some("APPLICATION/JSON"),
        Some("application/json; charset=utf-8"),
        None,
    ] {
        let mut req = post("/api/order/create").with_body(r#"{"userId":"u","price":1}"#);
        if let Some(ct) = content_type {
            req = req.with_header("Content-Type", ct);
        }
        let response = service(2).handle(req);
        assert_eq!(
            (response.status, response.body.code),
            (200, 0),
            "{content_type:?}: {}",
            response.body.msg
        );
    }
}

#[test]
fn deeply_nested_json_is_400_without_crashing() {
    let depth = 100_000;
    let arrays = format!(
        r#"{{"userId":"u","price":{}{}}}"#,
        "[".repeat(depth),
        "]".repeat(depth)
    );
    let objects = format!(
        r#"{{"userId":"u","price":1,"description":{}1{}}}"#,
        r#"{"a":"#.repeat(depth),
        "}".repeat(depth)
    );
    for text in [arrays, objects] {
        let response = Pair::new().refuse(
            post_text("/api/order/create", &text),
            400,
            "body: not valid JSON: ",
        );
        assert!(
            response.body.msg.contains("recursion limit exceeded"),
            "{}",
            response.body.msg
        );
    }
    let response = Pair::new().refuse(
        post_text("/api/payment/pay", &"[".repeat(depth)),
        400,
        "body: not valid JSON: ",
    );
    assert!(
        response.body.msg.contains("recursion limit exceeded"),
        "{}",
        response.body.msg
    );
}

#[test]
fn a_number_too_large_for_a_double_is_400() {
    for number in ["1e400", "-1e400", "1E999"] {
        let text = format!(r#"{{"userId":"u","price":{number}}}"#);
        let response = Pair::new().refuse(
            post_text("/api/order/create", &text),
            400,
            "body: not valid JSON: ",
        );
        assert!(
            response.body.msg.contains("number out of range"),
            "{}",
            response.body.msg
        );
        let p = Pair::new();
        let text = format!(
            r#"{{"orderId":"{}","amount":{number},"paymentMethod":"CARD"}}"#,
            p.order_id
        );
        let response = p.refuse(
            post_text("/api/payment/pay", &text),
            400,
            "body: not valid JSON: ",
        );
        assert!(
            response.body.msg.contains("number out of range"),
            "{}",
            response.body.msg
        );
    }
}

#[test]
fn a_lone_surrogate_escape_is_400() {
    Pair::new().refuse(
        post_text("/api/order/create", r#"{"userId":"\ud800","price":1}"#),
        400,
        "body: not valid JSON: ",
    );
}

#[test]
fn duplicate_keys_in_a_create_body_are_400() {
    let text = r#"{"userId":"u","price":5,"price":-1,"description":"d"}"#;
    let response = Pair::new().refuse(post_text("/api/order/create", text), 400, "");
    assert!(
        response.body.msg.starts_with("body:") || response.body.msg.starts_with("price:"),
        "{}",
        response.body.msg
    );
    assert!(response.body.msg.contains("price"), "{}", response.body.msg);
}

#[test]
fn duplicate_keys_in_a_pay_body_are_400() {
    let p = Pair::new();
    let text = format!(
        r#"{{"orderId":"{}","amount":-1,"amount":10.5,"paymentMethod":"CARD"}}"#,
        p.order_id
    );
    let response = p.refuse(post_text("/api/payment/pay", &text), 400, "");
    assert!(
        response.body.msg.starts_with("body:") || response.body.msg.starts_with("amount:"),
        "{}",
        response.body.msg
    );
    assert!(
        response.body.msg.contains("amount"),
        "{}",
        response.body.msg
    );
}

#[test]
fn duplicate_keys_with_the_same_value_are_400_too() {
    let text = r#"{"userId":"u","userId":"u","price":5}"#;
    let response = Pair::new().refuse(post_text("/api/order/create", text), 400, "");
    assert!(
        response.body.msg.contains("userId"),
        "{}",
        response.body.msg
    );
}

#[test]
fn in_a_body_of_many_keys_the_first_key_given_again_in_body_order_is_named() {
    // Past 16 members the repeats are found by sorting the keys: the one
    // named is still the first to come again in the body, not the first
    // in key order ("k05" comes again before "k02" does).
    let mut members: Vec<String> = (0..20).map(|i| format!("\"k{i:02}\":{i}")).collect();
    members.push(r#""k05":1"#.to_string());
    members.push(r#""k02":1"#.to_string());
    let text = format!(r#"{{"userId":"u","price":5,{}}}"#, members.join(","));
    let response = Pair::new().refuse(post_text("/api/order/create", &text), 400, "");
    assert_eq!(response.body.msg, "k05: given more than once in the body");
}

// ------------------------------------------------------------- create fields

#[test]
fn create_with_a_user_id_of_the_wrong_type_is_400_naming_user_id() {
    let cases = [
        (json!(7), "userId: expected a string, got number 7"),
        (json!(true), "userId: expected a string, got boolean true"),
        (json!(["u"]), "userId: expected a string, got an array"),
        (
            json!({"id": "u"}),
            "userId: expected a string, got an object",
        ),
    ];
    for (value, msg) in cases {
        Pair::new().refuse_exactly(create_body(json!({"userId": value})), 400, msg);
    }
}

#[test]
fn create_with_a_price_of_the_wrong_type_is_400_naming_price() {
    let cases = [
        (json!("10"), "price: expected a number, got string \"10\""),
        (json!("ten"), "price: expected a number, got string \"ten\""),
        (json!(false), "price: expected a number, got boolean false"),
        (json!([10]), "price: expected a number, got an array"),
        (
            json!({"amount": 10}),
            "price: expected a number, got an object",
        ),
    ];
    for (value, msg) in cases {
        Pair::new().refuse_exactly(create_body(json!({"price": value})), 400, msg);
    }
}

#[test]
fn create_with_a_description_of_the_wrong_type_is_400_naming_description() {
    let cases = [
        (json!(5), "description: expected a string, got number 5"),
        (
            json!(true),
            "description: expected a string, got boolean true",
        ),
        (json!(["a"]), "description: expected a string, got an array"),
        (
            json!({"a": 1}),
            "description: expected a string, got an object",
        ),
    ];
    for (value, msg) in cases {
        Pair::new().refuse_exactly(create_body(json!({"description": value})), 400, msg);
    }
}

#[test]
fn create_without_user_id_or_price_is_400_naming_the_missing_field() {
    Pair::new().refuse_exactly(
        create_without("userId"),
        400,
        "userId: required field is missing",
    );
    Pair::new().refuse_exactly(
        create_body(json!({"userId": null})),
        400,
        "userId: required field is missing",
    );
    Pair::new().refuse_exactly(
        create_without("price"),
        400,
        "price: required field is missing",
    );
    Pair::new().refuse_exactly(
        create_body(json!({"price": null})),
        400,
        "price: required field is missing",
    );
    Pair::new().refuse_exactly(
        post_text("/api/order/create", "{}"),
        400,
        "userId: required field is missing",
    );
}

#[test]
fn a_malformed_field_wins_over_a_price_not_above_zero() {
    let req = post_json("/api/order/create", &json!({"userId": 1, "price": -5}));
    Pair::new().refuse_exactly(req, 400, "userId: expected a string, got number 1");
}

#[test]
fn create_without_description_gives_an_empty_description() {
    for req in [
        create_without("description"),
        create_body(json!({"description": null})),
    ] {
        let response = service(3).handle(req);
        assert_eq!(response.body.code, 0, "{}", response.body.msg);
        assert_eq!(data(&response)["description"], "");
    }
}

#[test]
fn a_blank_user_id_is_400() {
    for blank in ["", " ", "     ", "\t", "\u{3000}\u{00a0}"] {
        Pair::new().refuse_exactly(
            create_body(json!({"userId": blank})),
            400,
            "userId: must not be empty",
        );
    }
}

#[test]
fn a_user_id_with_control_characters_is_400() {
    for bad in ["a\u{0}b", "line\nbreak", "bell\u{7}", "del\u{7f}"] {
        Pair::new().refuse_exactly(
            create_body(json!({"userId": bad})),
            400,
            "userId: must not contain control characters",
        );
    }
}

#[test]
fn user_id_and_description_lengths_are_bounded_in_characters() {
    let mut svc = service(4);
    let user = "é".repeat(64);
    let description = "🍵".repeat(1000);
    let response = svc.handle(create_request(&user, 1.0, &description));
    assert_eq!(response.body.code, 0, "{}", response.body.msg);
    assert_eq!(
        (
            data(&response)["userId"].as_str(),
            data(&response)["description"].as_str()
        ),
        (Some(user.as_str()), Some(description.as_str()))
    );
    Pair::new().refuse_exactly(
        create_body(json!({"userId": "u".repeat(65)})),
        400,
        "userId: must be at most 64 characters, got 65",
    );
    Pair::new().refuse_exactly(
        create_body(json!({"description": "d".repeat(1001)})),
        400,
        "description: must be at most 1000 characters, got 1001",
    );
}

// ---------------------------------------------------------------- pay fields

#[test]
fn pay_with_an_order_id_of_the_wrong_type_is_400_naming_order_id() {
    let cases = [
        (json!(1), "orderId: expected a string, got number 1"),
        (
            json!(false),
            "orderId: expected a string, got boolean false",
        ),
        (json!(["ORD-1"]), "orderId: expected a string, got an array"),
        (json!({}), "orderId: expected a string, got an object"),
    ];
    for (value, msg) in cases {
        let p = Pair::new();
        let req = p.pay_body(json!({"orderId": value}));
        p.refuse_exactly(req, 400, msg);
    }
}

#[test]
fn pay_with_an_amount_of_the_wrong_type_is_400_naming_amount() {
    let cases = [
        (
            json!("10.5"),
            "amount: expected a number, got string \"10.5\"",
        ),
        (json!(true), "amount: expected a number, got boolean true"),
        (json!([1]), "amount: expected a number, got an array"),
        (
            json!({"value": 1}),
            "amount: expected a number, got an object",
        ),
    ];
    for (value, msg) in cases {
        let p = Pair::new();
        let req = p.pay_body(json!({"amount": value}));
        p.refuse_exactly(req, 400, msg);
    }
}

#[test]
fn pay_with_a_payment_method_of_the_wrong_type_is_400_naming_payment_method() {
    let cases = [
        (json!(1), "paymentMethod: expected a string, got number 1"),
        (
            json!(true),
            "paymentMethod: expected a string, got boolean true",
        ),
        (
            json!(["CARD"]),
            "paymentMethod: expected a string, got an array",
        ),
        (
            json!({"CARD": true}),
            "paymentMethod: expected a string, got an object",
        ),
    ];
    for (value, msg) in cases {
        let p = Pair::new();
        let req = p.pay_body(json!({"paymentMethod": value}));
        p.refuse_exactly(req, 400, msg);
    }
}

#[test]
fn pay_with_an_undocumented_payment_method_is_400() {
    for method in [
        "card", "Card", "WALLET_C", "WALLET", "", " CARD", "CARD ", "PAYPAL",
    ] {
        let p = Pair::new();
        let req = p.pay_body(json!({"paymentMethod": method}));
        let msg = format!("paymentMethod: must be one of CARD, WALLET_A, WALLET_B, got {method:?}");
        p.refuse_exactly(req, 400, &msg);
    }
}

#[test]
fn pay_without_a_required_field_is_400_naming_it() {
    for field in ["orderId", "amount", "paymentMethod"] {
        let p = Pair::new();
        let mut body = json!({"orderId": p.order_id, "amount": 10.5, "paymentMethod": "CARD"});
        body.as_object_mut().unwrap().remove(field);
        let msg = format!("{field}: required field is missing");
        p.refuse_exactly(post_json("/api/payment/pay", &body), 400, &msg);
        let p = Pair::new();
        let req = p.pay_body(json!({field: null}));
        p.refuse_exactly(req, 400, &msg);
    }
    Pair::new().refuse_exactly(
        post_text("/api/payment/pay", "{}"),
        400,
        "orderId: required field is missing",
    );
}

#[test]
fn a_bad_payment_method_wins_over_an_amount_not_above_zero() {
    let p = Pair::new();
    let req = p.pay_body(json!({"amount": -1, "paymentMethod": "card"}));
    p.refuse_exactly(
        req,
        400,
        "paymentMethod: must be one of CARD, WALLET_A, WALLET_B, got \"card\"",
    );
}

#[test]
fn a_card_number_with_a_wallet_is_400_naming_both_fields() {
    for method in ["WALLET_A", "WALLET_B"] {
        // A declining card: were it taken, the wallet's pay would fail.
        for number in ["4000 0000 0000 9995", "1234"] {
            let p = Pair::new();
            let req = p.pay_body(json!({"paymentMethod": method, "cardNumber": number}));
            let msg =
                format!("cardNumber: only for paymentMethod CARD, got paymentMethod {method:?}");
            p.refuse_exactly(req, 400, &msg);
        }
    }
}

#[test]
fn an_unknown_card_number_is_400_saying_where_the_cards_are() {
    for number in ["1234", "4242 4242 4242 4241", "4242.4242.4242.4242"] {
        let p = Pair::new();
        let req = p.pay_body(json!({"cardNumber": number}));
        let msg = format!(
            "cardNumber: must be one of the test cards' numbers \
             (docs/async-payments.md#the-test-cards), got {number:?}"
        );
        p.refuse_exactly(req, 400, &msg);
    }
}

// ----------------------------------------------------------- methods and paths

#[test]
fn an_unknown_path_is_404_with_a_hint_to_the_nearest_route() {
    let cases = [
        ("POST", "/api/ordr/create", "No route for POST /api/ordr/create; did you mean POST /api/order/create?"),
        ("POST", "/api/orders/create", "No route for POST /api/orders/create; did you mean POST /api/order/create?"),
        ("POST", "/API/ORDER/CREATE", "No route for POST /API/ORDER/CREATE; did you mean POST /api/order/create?"),
        ("POST", "/api/payment/refund/", "No route for POST /api/payment/refund/; did you mean POST /api/payment/refund/{paymentId}?"),
        ("GET", "/api/paymnt/PAY-1", "No route for GET /api/paymnt/PAY-1; did you mean GET /api/payment/{paymentId}?"),
    ];
    for (method, path, msg) in cases {
        let body = r#"{"userId":"u","price":1}"#;
        Pair::new().refuse_exactly(RawRequest::new(method, path).with_body(body), 404, msg);
    }
}

#[test]
fn a_path_far_from_every_route_is_404_without_a_hint() {
    let path = "/totally/elsewhere/and/far/away/from/here";
    Pair::new().refuse_exactly(get(path), 404, &format!("No route for GET {path}"));
}

#[test]
fn a_wrong_method_is_405_with_an_allow_header() {
    let cases = [
        ("GET", "/api/order/create", "POST"),
        ("DELETE", "/api/order/ORD-AAAAAAAA", "GET"),
        ("PUT", "/api/order/ORD-AAAAAAAA/pay", "POST"),
        ("GET", "/api/order/delete/ORD-AAAAAAAA", "POST"),
        ("DELETE", "/api/order/delete/ORD-AAAAAAAA", "POST"),
        ("PUT", "/api/payment/pay", "POST"),
        ("GET", "/api/payment/pay", "POST"),
        ("POST", "/api/payment/PAY-AAAAAAAA", "GET"),
        ("GET", "/api/payment/refund/PAY-AAAAAAAA", "POST"),
        ("POST", "/api/test/order/batch", "GET"),
        ("PATCH", "/api/test/order/batch", "GET"),
    ];
    for (method, path, allow) in cases {
        let start = format!("method: {method} is not allowed on {path}; use {allow}");
        let response = Pair::new().refuse(RawRequest::new(method, path), 405, &start);
        assert_eq!(response.header("allow"), Some(allow), "{method} {path}");
    }
}

#[test]
fn only_a_405_carries_an_allow_header() {
    let mut svc = service(5);
    for req in [
        create_request("u", 1.0, ""),
        get("/nowhere"),
        post_text("/api/order/create", "x"),
    ] {
        assert_eq!(svc.handle(req).header("allow"), None);
    }
}

#[test]
fn methods_are_matched_in_any_letter_case() {
    let mut upper = service(6);
    let mut lower = service(6);
    let expected = upper.handle(create_request("u", 1.0, "d"));
    let mut req = create_request("u", 1.0, "d");
    req.method = "post".to_owned();
    let got = lower.handle(req);
    assert_eq!(got.status, 200);
    assert_eq!(got.body, expected.body);
    let id = data(&got)["orderId"].as_str().unwrap().to_owned();
    for method in ["get", "Get", "gEt"] {
        let response = lower.handle(RawRequest::new(method, &format!("/api/order/{id}")));
        assert_eq!(body(&response), success(data(&got)), "{method}");
    }
    let logged = lower.logs(None);
    let json = serde_json::to_value(logged.last().unwrap()).unwrap();
    assert_eq!(
        json["method"], "GET",
        "the log shows the method in upper case"
    );
}

#[test]
fn an_empty_or_malformed_method_is_400_naming_method() {
    let cases = [
        (
            "",
            "method: must be an HTTP method such as GET or POST, got \"\"",
        ),
        (
            "   ",
            "method: must be an HTTP method such as GET or POST, got \"\"",
        ),
        (
            "P0ST",
            "method: must be an HTTP method such as GET or POST, got \"P0ST\"",
        ),
        (
            "GET /x",
            "method: must be an HTTP method such as GET or POST, got \"GET /X\"",
        ),
        (
            "PO-ST",
            "method: must be an HTTP method such as GET or POST, got \"PO-ST\"",
        ),
    ];
    for (method, msg) in cases {
        Pair::new().refuse_exactly(
            RawRequest::new(method, "/api/order/create").with_body("{}"),
            400,
            msg,
        );
    }
}

#[test]
fn a_path_not_starting_with_a_slash_is_400_naming_path() {
    let cases = [
        (
            "api/order/create",
            "path: must start with '/', got \"api/order/create\"",
        ),
        ("", "path: must start with '/', got \"\""),
        (
            "http://example.invalid/api/order/create",
            "path: must start with '/', got \"http://example.invalid/api/order/create\"",
        ),
        ("*", "path: must start with '/', got \"*\""),
    ];
    for (path, msg) in cases {
        let req = RawRequest::new("POST", path).with_body(r#"{"userId":"u","price":1}"#);
        Pair::new().refuse_exactly(req, 400, msg);
    }
}

#[test]
fn a_path_over_eight_kibibytes_is_414() {
    let path = format!("/api/order/{}", "A".repeat(8 * 1024));
    let msg = format!("path: {} bytes is over the limit of 8192 bytes", path.len());
    Pair::new().refuse_exactly(get(&path), 414, &msg);
}

#[test]
fn headers_over_sixty_four_kibibytes_are_431() {
    let req = get("/api/order/ORD-AAAAAAAA").with_header("X-Padding", &"p".repeat(64 * 1024));
    let msg = format!(
        "headers: {} bytes is over the limit of 65536 bytes",
        64 * 1024 + "X-Padding".len()
    );
    Pair::new().refuse_exactly(req, 431, &msg);
}

// ---------------------------------------------------------------- odd unicode

#[test]
fn odd_unicode_in_user_id_and_description_is_accepted_and_echoed_exactly() {
    let cases = [
        ("🧑‍💻👨‍👩‍👧", "tea 🍵, coffee ☕️, flag 🇯🇵"),
        ("משתמש", "שלום עולם مرحبا بالعالم"),
        (
            "e\u{301}\u{327}Z\u{351}\u{336}",
            "Z\u{351}\u{336}a\u{308}\u{30a}lgo",
        ),
        (
            "\u{202e}resu",
            "\u{202b}mixed RTL\u{202c} and \u{200d} zero width",
        ),
        ("ユーザー", "line one\nline two\ttabbed"),
    ];
    for (user, description) in cases {
        let mut svc = service(7);
        let response = svc.handle(create_request(user, 9.99, description));
        assert_eq!(response.body.code, 0, "{user:?}: {}", response.body.msg);
        let order = data(&response);
        assert_eq!(order["userId"].as_str(), Some(user));
        assert_eq!(order["description"].as_str(), Some(description));
        let id = order["orderId"].as_str().unwrap();
        assert_eq!(data(&svc.handle(get(&format!("/api/order/{id}")))), order);
    }
}

#[test]
fn escaped_unicode_is_read_as_the_characters_it_names() {
    let mut svc = service(8);
    let text =
        r#"{"userId":"\u05e9\u05dc\u05d5\u05dd","price":1,"description":"\ud83c\udf75e\u0301"}"#;
    let order = data(&svc.handle(post_text("/api/order/create", text)));
    assert_eq!(order["userId"], "שלום");
    assert_eq!(order["description"], "🍵e\u{301}");
}

#[test]
fn an_odd_unicode_user_id_header_is_logged_exactly() {
    let mut svc = service(9);
    let user = "ü\u{301}ser 🧑‍💻 שלום";
    svc.handle(create_request("u", 1.0, "").with_header("X-User-Id", user));
    let record = serde_json::to_value(&last_records(&svc, 1)[0]).unwrap();
    assert_eq!(record["userId"].as_str(), Some(user));
}

// ------------------------------------------------------- every message's text

/// The refusals of a corpus of bad requests (each field of each body
/// given each bad value or left out, bodies of every JSON kind, paths
/// near and far from a route, every method, bad headers and queries),
/// one a line as `status msg`, each once, sorted.
fn refusals_of_bad_requests() -> String {
    let values = bad_values();
    let mut svc = always_approves(42);
    let order_id = create_order_id(&mut svc);
    let mut requests = Vec::new();
    let create = json!({"userId": "u-1", "price": 10.5, "description": "d"});
    let pay = json!({"orderId": order_id, "amount": 10.5, "paymentMethod": "CARD"});
    for (path, good) in [("/api/order/create", &create), ("/api/payment/pay", &pay)] {
        bad_bodies(path, good, &values, &mut requests);
    }
    bad_paths_and_methods(&mut requests);
    for outcome in ["maybe", "", "SUCCESS ", "é"] {
        requests.push(post_json("/api/payment/pay", &pay).with_header("X-Sim-Outcome", outcome));
    }
    let mut lines = std::collections::BTreeSet::new();
    for req in requests {
        let response = svc.handle(req);
        if response.status >= 400 && response.status != 402 {
            lines.insert(format!("{} {}\n", response.status, response.body.msg));
        }
    }
    lines.into_iter().collect()
}

/// Values of every JSON kind that some field refuses.
fn bad_values() -> Vec<Value> {
    vec![
        json!(null),
        json!(true),
        json!(false),
        json!(""),
        json!(" "),
        json!("x"),
        json!("it's \"quoted\"\n\t\u{0}\u{7f}é\u{301}🦀"),
        json!("a".repeat(70)),
        json!("ORD-BAD"),
        json!("ORD-ZZZZZZZZ"),
        json!("PAY-ZZZZZZZZ"),
        json!([]),
        json!([1]),
        json!({}),
        json!(0),
        json!(-1),
        json!(1.5),
        json!(10.123),
        json!(1e300),
        json!(-1e300),
        json!(12345678901234567890u64),
        json!(i64::MIN),
        json!(0.1),
    ]
}

/// Bad bodies for `path`, from its `good` one: each field left out or
/// given each bad value, bad values whole or as an extra field, broken
/// JSON and other content types.
fn bad_bodies(path: &str, good: &Value, values: &[Value], requests: &mut Vec<RawRequest>) {
    for field in good.as_object().into_iter().flat_map(|o| o.keys()) {
        let mut without = good.clone();
        without.as_object_mut().map(|o| o.remove(field));
        requests.push(post_json(path, &without));
        for v in values {
            let mut body = good.clone();
            body[field] = v.clone();
            requests.push(post_json(path, &body));
        }
    }
    for v in values {
        requests.push(post_json(path, v));
        let mut extra = good.clone();
        extra["it's \"x\"é"] = v.clone();
        requests.push(post_json(path, &extra));
    }
    for text in [
        "",
        "{",
        "{\"a\":1,}",
        "[1,2",
        "nul",
        "\"\\ud800\"",
        "{\"price\":1e999}",
        "1 2",
        "{\"a\":1,\"a\":2}",
    ] {
        requests.push(post_text(path, text));
    }
    for content_type in ["text/plain", "application/xml; charset=\"é\"", ""] {
        requests.push(post_json(path, good).with_header("Content-Type", content_type));
    }
}

/// Every method on paths near and far from a route, and bad queries.
fn bad_paths_and_methods(requests: &mut Vec<RawRequest>) {
    for path in [
        "/api/ordr/create",
        "/api/order/creat",
        "/api/payment/pya",
        "/api/order/",
        "/",
        "/x",
        "api/order/create",
        "/api/order/ORD-ZZZZZZZZ",
        "/api/order/delete/ORD-BAD",
        "/api/payment/refund/x",
        "/api/test/order/batch?count=0",
        "/api/test/order/batch?count=x",
        "/api/test/order/batch?count=100001",
        "/api/test/order/batch?count=-1",
        "/api/test/order/batch?count=1.5",
        "/api/order/é\u{301}/pay",
    ] {
        for method in [
            "GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS", "BREW", "g€t",
        ] {
            requests.push(RawRequest::new(method, path));
        }
    }
}

/// Each refusal reads byte for byte as it did when the messages were
/// written with `format!` (`tests/fixtures/request-refusals.txt`, written
/// by that code; set `ORDERPAY_WRITE_REFUSALS=1` to write it again after
/// a deliberate change).
#[test]
fn every_request_refusal_reads_as_it_did() {
    same_as_fixture(
        &refusals_of_bad_requests(),
        "tests/fixtures/request-refusals.txt",
        include_str!("fixtures/request-refusals.txt"),
        200,
    );
}
