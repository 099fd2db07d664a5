//! The OpenAPI 3.1 document of the eight endpoints, rendered from the route
//! table itself: every route of [`ROUTES`] becomes an operation, and
//! the match on its kind is exhaustive, so a route cannot be added without
//! being documented, nor documented without existing.
//!
//! It is written with the core's own JSON writer ([`Out`]), straight into
//! text, so the WebAssembly build carries no JSON library for it.

use crate::prelude::*;

use crate::json::write::Out;

use super::request::{MAX_BODY_BYTES, MAX_HEADER_BYTES, MAX_PATH_BYTES};
use super::route::{Kind, ROUTES};

/// What the document says about one kind of route beyond its method and path.
struct Operation {
    id: &'static str,
    summary: &'static str,
    /// What it does, as the spec's endpoints and states say.
    description: &'static str,
    tag: &'static str,
    /// The schema of the request body, when the route reads one.
    body: Option<&'static str>,
    /// The schema of `data` in a successful answer; none: `data` is null.
    data: Option<&'static str>,
    /// Business rejections it can answer with (HTTP 200, code -1).
    rejections: &'static [&'static str],
}

// Until this writer moves onto serde_json, which rewrites it whole.
#[allow(clippy::too_many_lines)]
fn operation(kind: Kind) -> Operation {
    let op = |id, summary, description, tag, body, data, rejections| Operation {
        id,
        summary,
        description,
        tag,
        body,
        data,
        rejections,
    };
    match kind {
        Kind::CreateOrder => op(
            "createOrder",
            "Create an order",
            "A new order in status CREATED, with an id `ORD-` and 8 characters; a price not above 0 is refused.",
            "order",
            Some("NewOrder"),
            Some("Order"),
            &["price must be > 0"],
        ),
        Kind::GetOrder => op(
            "getOrder",
            "Read an order",
            "The order with this id, as it is now.",
            "order",
            None,
            Some("Order"),
            &["Order not found"],
        ),
        Kind::MarkOrderPaid => op(
            "markOrderPaid",
            "Mark an order paid",
            "Moves a CREATED order to PAID. Paying through the payment endpoint does not do this by itself.",
            "order",
            None,
            None,
            &["Order not found", "Order already paid"],
        ),
        Kind::DeleteOrder => op(
            "deleteOrder",
            "Delete an order",
            "Deletes an order that is not paid; the delete uses POST, as the spec fixes.",
            "order",
            None,
            None,
            &["Order not found", "Paid order cannot be deleted"],
        ),
        Kind::Pay => op(
            "pay",
            "Pay for an order through the simulated third party",
            "A payment in status SUCCESS, or, for about 30% of attempts, the business error `Third party payment failed`. X-Sim-Outcome or the admin API's forceNext decides an attempt instead of the seeded draw.",
            "payment",
            Some("NewPayment"),
            Some("Payment"),
            &[
                "Order not found",
                "amount must be > 0",
                "Third party payment failed",
            ],
        ),
        Kind::GetPayment => op(
            "getPayment",
            "Read a payment",
            "The payment with this id, as it is now.",
            "payment",
            None,
            Some("Payment"),
            &["Payment not found"],
        ),
        Kind::Refund => op(
            "refund",
            "Refund a payment",
            "Moves a SUCCESS payment to REFUNDED; any other status is refused.",
            "payment",
            None,
            None,
            &["Payment not found", "Only success payment can be refunded"],
        ),
        Kind::Batch => op(
            "testOrderBatch",
            "Create, pay and mark paid `count` orders, as test data",
            "Runs the typical flow `count` times (create, pay, mark paid) and reports how many payments succeeded and failed, with the ids of the orders.",
            "test",
            None,
            Some("BatchReport"),
            &[],
        ),
    }
}

/// The document as JSON text, indented as people read it.
pub fn document() -> String {
    let mut out = Out::with_capacity(24 * 1024);
    write_document(&mut out);
    indent(&out.text)
}

// Until this writer moves onto serde_json, which rewrites it whole.
#[allow(clippy::too_many_lines)]
fn write_document(out: &mut Out) {
    out.begin_object();
    out.key("openapi");
    out.plain("3.1.0");
    out.key("info");
    out.begin_object();
    out.key("title");
    out.plain("orderpay");
    out.key("version");
    out.plain(env!("CARGO_PKG_VERSION"));
    out.key("license");
    out.begin_object();
    out.key("name");
    out.str(env!("CARGO_PKG_LICENSE"));
    out.key("identifier");
    out.str(env!("CARGO_PKG_LICENSE"));
    out.end_object();
    out.key("contact");
    out.begin_object();
    out.key("name");
    out.plain("orderpay");
    out.key("url");
    out.str(env!("CARGO_PKG_REPOSITORY"));
    out.end_object();
    out.key("description");
    out.str(
        "The order and payment service: eight endpoints behind one gateway, \
        every answer in the {code, msg, data} envelope. Code 0 is success, -1 a business \
        rejection (HTTP 200), and a malformed request gets its HTTP status as the code.",
    );
    out.end_object();
    out.key("servers");
    out.begin_array();
    out.begin_object();
    out.key("url");
    out.plain("http://127.0.0.1:4010");
    out.end_object();
    out.end_array();
    out.key("tags");
    out.begin_array();
    for (name, description) in [
        ("order", "Orders: create, read, mark paid, delete"),
        ("payment", "Payments: pay, read, refund"),
        ("test", "Test data"),
    ] {
        out.begin_object();
        out.key("name");
        out.plain(name);
        out.key("description");
        out.plain(description);
        out.end_object();
    }
    out.end_array();
    // The spec's part 5: no endpoint needs a credential.
    out.key("security");
    out.raw("[]");
    out.key("paths");
    out.begin_object();
    for (i, (_, template, _)) in ROUTES.iter().enumerate() {
        if ROUTES[..i].iter().any(|(_, t, _)| t == template) {
            continue;
        }
        out.key(template);
        out.begin_object();
        for (method, _, kind) in ROUTES.iter().filter(|(_, t, _)| t == template) {
            out.key(&method.to_ascii_lowercase());
            write_operation(out, template, *kind);
        }
        out.end_object();
    }
    out.end_object();
    out.key("components");
    write_components(out);
    out.end_object();
}

/// `{"$ref": "#/components/<section>/<name>"}`.
fn reference(out: &mut Out, section: &str, name: &str) {
    out.begin_object();
    out.key("$ref");
    out.comma_then_quote();
    for part in ["#/components/", section, "/", name, "\""] {
        out.text.push_str(part);
    }
    out.end_object();
}

/// `{"type": "<name>"}`.
fn typed(out: &mut Out, name: &str) {
    out.begin_object();
    out.key("type");
    out.plain(name);
    out.end_object();
}

/// An array of plain words.
fn words(out: &mut Out, items: &[&str]) {
    out.begin_array();
    for item in items {
        out.plain(item);
    }
    out.end_array();
}

/// `{"application/json": {"schema": …}}`, the schema written by `schema`.
fn json_content(out: &mut Out, schema: impl FnOnce(&mut Out)) {
    out.begin_object();
    out.key("application/json");
    out.begin_object();
    out.key("schema");
    schema(out);
    out.end_object();
    out.end_object();
}

fn write_operation(out: &mut Out, template: &str, kind: Kind) {
    let op = operation(kind);
    out.begin_object();
    out.key("operationId");
    out.plain(op.id);
    out.key("summary");
    out.str(op.summary);
    out.key("description");
    out.str(op.description);
    out.key("tags");
    words(out, &[op.tag]);
    out.key("parameters");
    write_parameters(out, template, kind);
    out.key("responses");
    write_responses(out, &op, kind);
    if let Some(schema) = op.body {
        out.key("requestBody");
        out.begin_object();
        out.key("required");
        out.bool(true);
        out.key("content");
        json_content(out, |out| reference(out, "schemas", schema));
        out.end_object();
    }
    out.end_object();
}

fn write_parameters(out: &mut Out, template: &str, kind: Kind) {
    out.begin_array();
    for name in template
        .split(['/'])
        .filter_map(|s| s.strip_prefix('{').and_then(|s| s.strip_suffix('}')))
    {
        out.begin_object();
        out.key("name");
        out.str(name);
        out.key("in");
        out.plain("path");
        out.key("required");
        out.bool(true);
        out.key("schema");
        out.begin_object();
        out.key("type");
        out.plain("string");
        out.key("minLength");
        out.uint(1);
        out.end_object();
        out.end_object();
    }
    if kind == Kind::Batch {
        out.begin_object();
        out.key("name");
        out.plain("count");
        out.key("in");
        out.plain("query");
        out.key("required");
        out.bool(true);
        out.key("description");
        out.plain("How many orders, digits only.");
        out.key("schema");
        out.begin_object();
        out.key("type");
        out.plain("integer");
        out.key("minimum");
        out.uint(1);
        out.key("maximum");
        out.uint(10000);
        out.end_object();
        out.end_object();
    }
    for (name, ..) in HEADER_PARAMETERS {
        if name != "X-Sim-Outcome" || kind == Kind::Pay {
            reference(out, "parameters", name);
        }
    }
    out.end_array();
}

// Until this writer moves onto serde_json, which rewrites it whole.
#[allow(clippy::too_many_lines)]
fn write_responses(out: &mut Out, op: &Operation, kind: Kind) {
    out.begin_object();
    out.key("200");
    out.begin_object();
    out.key("description");
    if op.rejections.is_empty() {
        out.plain("Code 0 and msg `success`");
    } else {
        let mut description = String::from(
            "Code 0 and msg `success`; or code -1 with data null for a business rejection: ",
        );
        for (i, rejection) in op.rejections.iter().enumerate() {
            if i > 0 {
                description.push_str(", ");
            }
            description.push('`');
            description.push_str(rejection);
            description.push('`');
        }
        out.str(&description);
    }
    out.key("headers");
    write_response_headers(out, false);
    out.key("content");
    json_content(out, |out| {
        out.begin_object();
        out.key("type");
        out.plain("object");
        out.key("required");
        words(out, &["code", "msg", "data"]);
        out.key("properties");
        out.begin_object();
        out.key("code");
        out.begin_object();
        out.key("type");
        out.plain("integer");
        out.key("enum");
        out.raw("[0,-1]");
        out.end_object();
        out.key("msg");
        typed(out, "string");
        out.key("data");
        match op.data {
            Some(schema) => {
                out.begin_object();
                out.key("anyOf");
                out.begin_array();
                reference(out, "schemas", schema);
                typed(out, "null");
                out.end_array();
                out.end_object();
            }
            None => typed(out, "null"),
        }
        out.end_object();
        out.end_object();
    });
    out.end_object();
    for (status, _) in ERRORS {
        let takes = match status {
            // Only a route that reads a body can get one too big or not JSON.
            "413" | "415" => op.body.is_some(),
            // The service keeps as many orders as its maxOrders allows.
            "507" => matches!(kind, Kind::CreateOrder | Kind::Batch),
            _ => true,
        };
        if takes {
            out.key(status);
            let mut name = String::from("Error");
            name.push_str(status);
            reference(out, "responses", &name);
        }
    }
    out.end_object();
}

/// Response headers of every answer: name, description, pattern.
const RESPONSE_HEADERS: [(&str, &str, &str); 6] = [
    (
        "x-b3-traceid",
        "The request's trace id: the caller's X-B3-TraceId when valid, else a new one.",
        "^[0-9a-f]{16}([0-9a-f]{16})?$",
    ),
    ("x-b3-spanid", "The gateway's span.", "^[0-9a-f]{16}$"),
    (
        "x-b3-parentspanid",
        "The caller's span, when one came in.",
        "^[0-9a-f]{16}$",
    ),
    (
        "x-b3-sampled",
        "1 when spans were recorded, 0 when the caller turned sampling off.",
        "^[01]$",
    ),
    (
        "traceparent",
        "The same trace context in W3C form.",
        "^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$",
    ),
    (
        "x-sim-duration-ms",
        "The simulated time the request took, in ms.",
        "^[0-9]+$",
    ),
];

/// The response headers; a 405 adds `allow`.
fn write_response_headers(out: &mut Out, allow: bool) {
    out.begin_object();
    for (name, description, pattern) in RESPONSE_HEADERS {
        out.key(name);
        out.begin_object();
        out.key("description");
        out.str(description);
        out.key("schema");
        out.begin_object();
        out.key("type");
        out.plain("string");
        out.key("pattern");
        out.str(pattern);
        out.end_object();
        out.end_object();
    }
    if allow {
        out.key("allow");
        out.begin_object();
        out.key("description");
        out.plain("The method the path takes.");
        out.key("schema");
        typed(out, "string");
        out.end_object();
    }
    out.end_object();
}

/// The error answers, in order of status, with what each means.
const ERRORS: [(&str, &str); 9] = [
    (
        "400",
        "Malformed request: msg names the field and the problem",
    ),
    ("404", "No such route; msg offers the nearest one"),
    ("405", "Known path, other method; the allow header names it"),
    ("413", "Body over 1 MiB"),
    ("414", "Path and query over 8 KiB"),
    ("415", "A body that is not application/json"),
    ("431", "Headers over 64 KiB together"),
    ("500", "Something broke inside the service"),
    (
        "507",
        "The service keeps its maxOrders already; delete orders or reset it",
    ),
];

/// The request headers the service reads, in the order operations list
/// them: name, description, and the values it takes (any string when
/// empty). `X-Sim-Outcome` is payment pay's alone.
const HEADER_PARAMETERS: [(&str, &str, &[&str]); 9] = [
    (
        "X-User-Id",
        "The caller's user: the log records' userId.",
        &[],
    ),
    (
        "X-B3-TraceId",
        "The trace id, 16 or 32 lower-case hex digits; anything else gets a fresh one.",
        &[],
    ),
    (
        "X-B3-SpanId",
        "The caller's span: the gateway's span becomes its child.",
        &[],
    ),
    ("X-B3-ParentSpanId", "The caller's parent span.", &[]),
    (
        "X-B3-Sampled",
        "0: log the request but record no spans.",
        &[],
    ),
    ("X-B3-Flags", "1: debug, which implies sampled.", &[]),
    (
        "b3",
        "Single-header B3 context, after X-B3-* in precedence.",
        &[],
    ),
    (
        "traceparent",
        "W3C trace context, after the B3 headers in precedence.",
        &[],
    ),
    (
        "X-Sim-Outcome",
        "Decides this payment attempt instead of the seeded draw.",
        &["success", "failure"],
    ),
];

fn write_components(out: &mut Out) {
    out.begin_object();
    out.key("schemas");
    write_schemas(out);
    out.key("parameters");
    out.begin_object();
    for (name, description, values) in HEADER_PARAMETERS {
        out.key(name);
        out.begin_object();
        out.key("name");
        out.plain(name);
        out.key("in");
        out.plain("header");
        out.key("required");
        out.bool(false);
        out.key("description");
        out.str(description);
        out.key("schema");
        out.begin_object();
        out.key("type");
        out.plain("string");
        if !values.is_empty() {
            out.key("enum");
            words(out, values);
        }
        out.end_object();
        out.end_object();
    }
    out.end_object();
    out.key("responses");
    out.begin_object();
    for (status, description) in ERRORS {
        let mut name = String::from("Error");
        name.push_str(status);
        out.key(&name);
        out.begin_object();
        out.key("description");
        out.str(description);
        out.key("headers");
        write_response_headers(out, status == "405");
        out.key("content");
        json_content(out, |out| reference(out, "schemas", "ErrorEnvelope"));
        out.end_object();
    }
    out.end_object();
    out.key("x-limits");
    out.begin_object();
    out.key("bodyBytes");
    out.uint(MAX_BODY_BYTES as u64);
    out.key("pathBytes");
    out.uint(MAX_PATH_BYTES as u64);
    out.key("headerBytes");
    out.uint(MAX_HEADER_BYTES as u64);
    out.end_object();
    out.end_object();
}

/// One property of a schema: its name, then its schema as JSON text.
type Property = (&'static str, &'static str);

const ORDER_ID: &str = r#"{"type":"string","pattern":"^ORD-[A-Z0-9]{8}$"}"#;
const PAYMENT_ID: &str = r#"{"type":"string","pattern":"^PAY-[A-Z0-9]{8}$"}"#;
const STRING: &str = r#"{"type":"string"}"#;
const POSITIVE: &str = r#"{"type":"number","exclusiveMinimum":0}"#;
const TIME: &str = r#"{"type":"integer","description":"Unix time in ms"}"#;
const PAYMENT_METHOD: &str = r##"{"$ref":"#/components/schemas/PaymentMethod"}"##;

/// The object schemas: name, required properties, properties.
const SCHEMAS: [(&str, &[&str], &[Property]); 6] = [
    (
        "NewOrder",
        &["userId", "price"],
        &[
            (
                "userId",
                r#"{"type":"string","minLength":1,"maxLength":64,"pattern":"\\S"}"#,
            ),
            (
                "price",
                r#"{"type":"number","description":"Not above 0: code -1, price must be > 0"}"#,
            ),
            (
                "description",
                r#"{"type":["string","null"],"maxLength":1000}"#,
            ),
        ],
    ),
    (
        "NewPayment",
        &["orderId", "amount", "paymentMethod"],
        &[
            ("orderId", STRING),
            (
                "amount",
                r#"{"type":"number","description":"Not above 0: code -1, amount must be > 0"}"#,
            ),
            ("paymentMethod", PAYMENT_METHOD),
        ],
    ),
    (
        "Order",
        &[
            "orderId",
            "userId",
            "price",
            "status",
            "description",
            "createdAt",
        ],
        &[
            ("orderId", ORDER_ID),
            ("userId", STRING),
            ("price", POSITIVE),
            ("status", r#"{"type":"string","enum":["CREATED","PAID"]}"#),
            ("description", STRING),
            ("createdAt", TIME),
        ],
    ),
    (
        "Payment",
        &[
            "paymentId",
            "orderId",
            "amount",
            "status",
            "paymentMethod",
            "paidAt",
        ],
        &[
            ("paymentId", PAYMENT_ID),
            ("orderId", STRING),
            ("amount", POSITIVE),
            (
                "status",
                r#"{"type":"string","enum":["SUCCESS","REFUNDED"]}"#,
            ),
            ("paymentMethod", PAYMENT_METHOD),
            ("paidAt", TIME),
        ],
    ),
    (
        "BatchReport",
        &["count", "succeeded", "failed", "orderIds"],
        &[
            ("count", r#"{"type":"integer","minimum":1}"#),
            ("succeeded", r#"{"type":"integer","minimum":0}"#),
            ("failed", r#"{"type":"integer","minimum":0}"#),
            (
                "orderIds",
                r#"{"type":"array","items":{"type":"string","pattern":"^ORD-[A-Z0-9]{8}$"}}"#,
            ),
        ],
    ),
    (
        "ErrorEnvelope",
        &["code", "msg", "data"],
        &[
            (
                "code",
                r#"{"type":"integer","description":"The HTTP status"}"#,
            ),
            ("msg", STRING),
            ("data", r#"{"type":"null"}"#),
        ],
    ),
];

fn write_schemas(out: &mut Out) {
    out.begin_object();
    for (name, required, properties) in SCHEMAS {
        out.key(name);
        out.begin_object();
        out.key("type");
        out.plain("object");
        out.key("required");
        words(out, required);
        out.key("properties");
        out.begin_object();
        for (property, schema) in properties {
            out.key(property);
            out.raw(schema);
        }
        out.end_object();
        out.end_object();
    }
    out.key("PaymentMethod");
    out.raw(r#"{"type":"string","enum":["CARD","WALLET_A","WALLET_B"]}"#);
    out.end_object();
}

/// Compact JSON text re-indented by two spaces a level, with `": "`
/// between keys and values and empty containers kept as `{}` and `[]`.
fn indent(compact: &str) -> String {
    let mut text = String::with_capacity(compact.len() * 2);
    let mut depth = 0usize;
    let (mut in_string, mut escaped) = (false, false);
    let bytes = compact.as_bytes();
    let newline = |text: &mut String, depth: usize| {
        text.push('\n');
        for _ in 0..depth {
            text.push_str("  ");
        }
    };
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        let after = match b {
            b'"' => {
                in_string = true;
                continue;
            }
            b'{' | b'[' if matches!(bytes.get(i + 1), Some(b'}' | b']')) => continue,
            b'{' | b'[' => {
                depth += 1;
                Some(depth)
            }
            b',' => Some(depth),
            b':' => None,
            b'}' | b']' if i > 0 && matches!(bytes[i - 1], b'{' | b'[') => continue,
            b'}' | b']' => {
                depth = depth.saturating_sub(1);
                text.push_str(&compact[start..i]);
                newline(&mut text, depth);
                start = i;
                continue;
            }
            _ => continue,
        };
        text.push_str(&compact[start..=i]);
        start = i + 1;
        match after {
            Some(depth) => newline(&mut text, depth),
            None => text.push(' '),
        }
    }
    text.push_str(&compact[start..]);
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    fn doc() -> Value {
        serde_json::from_str(&document()).unwrap_or(Value::Null)
    }

    #[test]
    fn every_route_of_the_table_is_an_operation_and_nothing_else_is() {
        let doc = doc();
        let paths = doc["paths"].as_object().cloned().unwrap_or_default();
        let mut documented = 0;
        for (path, item) in &paths {
            for method in item
                .as_object()
                .map(|m| m.keys().cloned().collect::<Vec<_>>())
                .unwrap_or_default()
            {
                documented += 1;
                assert!(
                    ROUTES
                        .iter()
                        .any(|(m, t, _)| m.eq_ignore_ascii_case(&method) && t == path),
                    "{method} {path} is documented but not routed"
                );
            }
        }
        assert_eq!(documented, ROUTES.len());
        for (method, template, _) in ROUTES {
            let op = &doc["paths"][template][method.to_ascii_lowercase()];
            assert!(
                op.is_object(),
                "{method} {template} is routed but not documented"
            );
            // Each {param} of the template is a required path parameter.
            for name in template
                .split('/')
                .filter_map(|s| s.strip_prefix('{'))
                .map(|s| s.trim_end_matches('}'))
            {
                let declared = op["parameters"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .any(|p| p["in"] == "path" && p["name"] == name && p["required"] == true);
                assert!(declared, "{method} {template}: {name}");
            }
        }
    }

    #[test]
    fn routes_with_a_body_document_it_and_its_refusals() {
        let doc = doc();
        let create = &doc["paths"]["/api/order/create"]["post"];
        assert_eq!(
            create["requestBody"]["content"]["application/json"]["schema"]["$ref"],
            "#/components/schemas/NewOrder"
        );
        assert!(create["responses"]["413"].is_object());
        assert!(create["responses"]["415"].is_object());
        let read = &doc["paths"]["/api/order/{orderId}"]["get"];
        assert!(read["requestBody"].is_null());
        assert!(read["responses"]["413"].is_null());
        assert!(create["responses"]["507"].is_object());
        assert!(read["responses"]["507"].is_null());
    }

    #[test]
    fn only_payment_pay_takes_x_sim_outcome() {
        let doc = doc();
        let takes = |path: &str, method: &str| {
            doc["paths"][path][method]["parameters"]
                .as_array()
                .into_iter()
                .flatten()
                .any(|p| p["$ref"] == "#/components/parameters/X-Sim-Outcome")
        };
        assert!(takes("/api/payment/pay", "post"));
        assert!(!takes("/api/order/create", "post"));
    }

    #[test]
    fn every_reference_resolves() {
        let doc = doc();
        let text = document();
        let mut rest = text.as_str();
        let mut count = 0;
        while let Some(at) = rest.find("\"$ref\": \"#/") {
            // From the "/" after "#": a JSON pointer into the document.
            rest = &rest[at + 10..];
            let end = rest.find('"').unwrap_or(0);
            let pointer = &rest[..end];
            assert!(doc.pointer(pointer).is_some(), "unresolved {pointer}");
            count += 1;
        }
        assert!(count > 20);
    }

    #[test]
    fn it_says_what_linters_ask_for_no_credential_a_license_and_descriptions() {
        let doc = doc();
        assert_eq!(doc["security"], serde_json::json!([]));
        assert_eq!(doc["info"]["license"]["identifier"], "MIT OR Apache-2.0");
        assert!(doc["info"]["contact"]["url"].is_string());
        let tags = doc["tags"].as_array().cloned().unwrap_or_default();
        assert!(tags.iter().all(|t| t["description"].is_string()));
        let operations = doc["paths"].as_object().into_iter().flatten();
        for (path, item) in operations {
            for (method, op) in item.as_object().into_iter().flatten() {
                let text = op["description"].as_str().unwrap_or_default();
                assert!(!text.is_empty(), "{method} {path}: no description");
            }
        }
    }

    #[test]
    fn indenting_keeps_the_value_and_lays_it_out_as_serde_json_does() {
        let compact = r#"{"a":[1,{"b":"x,{[\"]:"},[],{}],"c":{"d":null}}"#;
        let pretty = indent(compact);
        assert_eq!(
            serde_json::from_str::<Value>(&pretty).ok(),
            serde_json::from_str::<Value>(compact).ok()
        );
        let value: Value = serde_json::from_str(compact).unwrap_or(Value::Null);
        assert_eq!(
            pretty,
            serde_json::to_string_pretty(&value).unwrap_or_default()
        );
    }

    #[test]
    fn the_document_is_valid_json_with_its_sections() {
        let doc = doc();
        assert_eq!(doc["openapi"], "3.1.0");
        assert_eq!(doc["paths"].as_object().map(|p| p.len()), Some(8));
        assert_eq!(
            doc["components"]["schemas"]["NewOrder"]["properties"]["userId"]["pattern"],
            "\\S"
        );
        assert_eq!(
            doc["components"]["x-limits"]["bodyBytes"],
            MAX_BODY_BYTES as u64
        );
    }
}
