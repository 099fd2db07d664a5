//! The OpenAPI 3.1 document of the eight endpoints and the challenge page,
//! rendered from the route table itself: every route of [`ROUTES`]
//! becomes an operation (a page's answers `text/html`), and
//! the match on its kind is exhaustive, so a route cannot be added without
//! being documented, nor documented without existing.
//!
//! Compiled with the `serde` feature only, and called natively:
//! `tests/openapi_js.rs` writes the document into the JS layer
//! (`src/js/openapi.js`), so the package's WebAssembly carries neither the
//! document nor serde_json. It is built as a
//! [`Value`] and printed by serde_json; its `preserve_order` feature keeps
//! the keys in the order they are written here.

use serde_json::{json, Map, Value};

use super::request::{MAX_BODY_BYTES, MAX_HEADER_BYTES, MAX_PATH_BYTES};
use crate::domain::route_table::{Kind, ROUTES};

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

/// The operation of each kind of route (the challenge page's, of its
/// method).
fn operation(kind: Kind, method: &str) -> &'static Operation {
    match kind {
        Kind::CreateOrder => &CREATE_ORDER,
        Kind::GetOrder => &GET_ORDER,
        Kind::MarkOrderPaid => &MARK_ORDER_PAID,
        Kind::DeleteOrder => &DELETE_ORDER,
        Kind::Pay => &PAY,
        Kind::GetPayment => &GET_PAYMENT,
        Kind::Refund => &REFUND,
        Kind::Batch => &BATCH,
        Kind::ChallengePage if method == "GET" => &CHALLENGE_PAGE,
        Kind::ChallengePage => &CHALLENGE_ANSWER,
    }
}

const CREATE_ORDER: Operation = Operation {
    id: "createOrder",
    summary: "Create an order",
    description: "A new order in status CREATED, with an id `ORD-` and 8 characters; a price not above 0 is refused.",
    tag: "order",
    body: Some("NewOrder"),
    data: Some("Order"),
    rejections: &["price must be > 0"],
};

const GET_ORDER: Operation = Operation {
    id: "getOrder",
    summary: "Read an order",
    description: "The order with this id, as it is now.",
    tag: "order",
    body: None,
    data: Some("Order"),
    rejections: &["Order not found"],
};

const MARK_ORDER_PAID: Operation = Operation {
    id: "markOrderPaid",
    summary: "Mark an order paid",
    description: "Moves a CREATED order to PAID. Paying through the payment endpoint does not do this by itself.",
    tag: "order",
    body: None,
    data: None,
    rejections: &["Order not found", "Order already paid"],
};

const DELETE_ORDER: Operation = Operation {
    id: "deleteOrder",
    summary: "Delete an order",
    description: "Deletes an order that is not paid; the delete uses POST, as the spec fixes.",
    tag: "order",
    body: None,
    data: None,
    rejections: &["Order not found", "Paid order cannot be deleted"],
};

const PAY: Operation = Operation {
    id: "pay",
    summary: "Pay for an order through the simulated third party",
    description: "A payment in status SUCCESS, or, for about 30% of attempts, the business error `Third party payment failed`. X-Sim-Outcome or the admin API's forceNext decides an attempt instead of the seeded draw.",
    tag: "payment",
    body: Some("NewPayment"),
    data: Some("Payment"),
    rejections: &[
        "Order not found",
        "amount must be > 0",
        "Third party payment failed",
    ],
};

const GET_PAYMENT: Operation = Operation {
    id: "getPayment",
    summary: "Read a payment",
    description: "The payment with this id, as it is now.",
    tag: "payment",
    body: None,
    data: Some("Payment"),
    rejections: &["Payment not found"],
};

const REFUND: Operation = Operation {
    id: "refund",
    summary: "Refund a payment",
    description: "Moves a SUCCESS payment to REFUNDED; any other status is refused.",
    tag: "payment",
    body: None,
    data: None,
    rejections: &["Payment not found", "Only success payment can be refunded"],
};

const BATCH: Operation = Operation {
    id: "testOrderBatch",
    summary: "Create, pay and mark paid `count` orders, as test data",
    description: "Runs the typical flow `count` times (create, pay, mark paid) and reports how many payments succeeded and failed, with the ids of the orders.",
    tag: "test",
    body: None,
    data: Some("BatchReport"),
    rejections: &[],
};

const CHALLENGE_PAGE: Operation = Operation {
    id: "challengePage",
    summary: "The 3-D Secure challenge page of a challenged payment",
    description: "A page, not an envelope: the payment's `nextAction.url`, served for a payment that is or was challenged (any other payment's path is a 404, no route). While the payment is REQUIRES_ACTION it has three buttons, Complete, Fail and Cancel, each a form posting its outcome; after, it says the payment's state.",
    tag: "payment",
    body: None,
    data: None,
    rejections: &[],
};

const CHALLENGE_ANSWER: Operation = Operation {
    id: "answerChallenge",
    summary: "The buyer's answer on the challenge page",
    description: "Ends a REQUIRES_ACTION payment's challenge with `outcome` (pass: Complete, fail: Fail, abandon: Cancel), then answers a 303 to the pay's `returnUrl` with `paymentId` and `status` added to its query, or, without one, the page saying the result. A challenge already over is a 409 and changes nothing: a browser (its Accept starts with text/html, as a form's POST does) gets a page saying how it ended, any other client the envelope.",
    tag: "payment",
    body: None,
    data: None,
    rejections: &[],
};

/// The document as JSON text, indented as people read it (serde_json's
/// pretty printer: two spaces a level).
pub fn document() -> String {
    format!("{:#}", root())
}

/// The document's top level, in the order people read it.
fn root() -> Value {
    json!({
        "openapi": "3.1.0",
        "info": info(),
        "servers": [{ "url": "http://127.0.0.1:4010" }],
        "tags": tags(),
        // The spec's part 5: no endpoint needs a credential.
        "security": [],
        "paths": paths(),
        "components": components(),
    })
}

fn info() -> Value {
    json!({
        "title": "orderpay",
        "version": env!("CARGO_PKG_VERSION"),
        "license": {
            "name": env!("CARGO_PKG_LICENSE"),
            "identifier": env!("CARGO_PKG_LICENSE"),
        },
        "contact": {
            "name": "orderpay",
            "url": env!("CARGO_PKG_REPOSITORY"),
        },
        "description": "The order and payment service: eight endpoints behind one gateway, \
            every answer in the {code, msg, data} envelope. Code 0 is success, -1 a business \
            rejection (HTTP 200, or 409 when the payment's state forbids it), and a malformed \
            request gets its HTTP status as the code. Beside them, a challenged payment's \
            3-D Secure challenge page, which answers HTML.",
    })
}

/// The operations' tags: name, description.
const TAGS: [(&str, &str); 3] = [
    ("order", "Orders: create, read, mark paid, delete"),
    (
        "payment",
        "Payments: pay, read, refund, and the challenge page",
    ),
    ("test", "Test data"),
];

fn tags() -> Value {
    TAGS.iter()
        .map(|(name, description)| json!({ "name": name, "description": description }))
        .collect()
}

/// One path item a template, in the order of the route table, with its
/// methods in that order too.
fn paths() -> Value {
    let mut paths = Map::new();
    for (method, template, kind) in ROUTES {
        let item = paths
            .entry(template)
            .or_insert_with(|| Value::Object(Map::new()));
        if let Some(item) = item.as_object_mut() {
            item.insert(
                method.to_ascii_lowercase(),
                path_operation(method, template, kind),
            );
        }
    }
    Value::Object(paths)
}

/// `{"$ref": "#/components/<section>/<name>"}`.
fn reference(section: &str, name: &str) -> Value {
    json!({ "$ref": format!("#/components/{section}/{name}") })
}

/// `{"application/json": {"schema": …}}`.
fn json_content(schema: Value) -> Value {
    json!({ "application/json": { "schema": schema } })
}

fn path_operation(method: &str, template: &str, kind: Kind) -> Value {
    let op = operation(kind, method);
    let responses = match kind {
        Kind::ChallengePage => page_responses(method),
        _ => responses(op, kind),
    };
    let mut value = json!({
        "operationId": op.id,
        "summary": op.summary,
        "description": op.description,
        "tags": [op.tag],
        "parameters": parameters(method, template, kind),
        "responses": responses,
    });
    if let (Some(fields), Some(schema)) = (value.as_object_mut(), op.body) {
        let body = json!({
            "required": true,
            "content": json_content(reference("schemas", schema)),
        });
        fields.insert("requestBody".into(), body);
    }
    value
}

/// The template's `{…}` parameters, the batch's `count` or the buyer's
/// `outcome`, then the request headers the route reads.
fn parameters(method: &str, template: &str, kind: Kind) -> Value {
    let mut list: Vec<Value> = template
        .split('/')
        .filter_map(|s| s.strip_prefix('{').and_then(|s| s.strip_suffix('}')))
        .map(|name| {
            json!({
                "name": name,
                "in": "path",
                "required": true,
                "schema": { "type": "string", "minLength": 1 },
            })
        })
        .collect();
    if kind == Kind::Batch {
        list.push(json!({
            "name": "count",
            "in": "query",
            "required": true,
            "description": "How many orders, digits only.",
            "schema": { "type": "integer", "minimum": 1, "maximum": 10000 },
        }));
    }
    if kind == Kind::ChallengePage && method == "POST" {
        list.push(json!({
            "name": "outcome",
            "in": "query",
            "required": true,
            "description": "The buyer's answer: pass (Complete), fail (Fail) or abandon (Cancel).",
            "schema": { "type": "string", "enum": ["pass", "fail", "abandon"] },
        }));
    }
    for (name, ..) in HEADER_PARAMETERS {
        let takes = match name {
            "X-Sim-Outcome" => kind == Kind::Pay,
            "Idempotency-Key" => keyed(kind),
            _ => true,
        };
        if takes {
            list.push(reference("parameters", name));
        }
    }
    Value::Array(list)
}

/// Whether the route takes an `Idempotency-Key`: every POST of the
/// eight does (a page is served before keys are looked up).
fn keyed(kind: Kind) -> bool {
    kind != Kind::ChallengePage
        && ROUTES
            .iter()
            .any(|(method, _, k)| *k == kind && *method == "POST")
}

/// The success answer, then the error answers the route can get.
fn responses(op: &Operation, kind: Kind) -> Value {
    let mut responses = Map::new();
    responses.insert("200".into(), success(op, keyed(kind)));
    for (status, _) in ERRORS {
        let takes = match status {
            // Only a route that reads a body can get one too big or not JSON.
            "413" | "415" => op.body.is_some(),
            // The service keeps as many orders as its maxOrders allows,
            // and as many idempotency keys as its idempotencyKeys.
            "507" => kind == Kind::Batch || keyed(kind),
            // A second pay while the order's challenge is open.
            "409" => kind == Kind::Pay,
            _ => true,
        };
        if takes {
            let name = format!("Error{status}");
            responses.insert(status.into(), reference("responses", &name));
        }
    }
    Value::Object(responses)
}

/// A page's answers: the page (`text/html`), for a POST a 303 back to
/// the pay's `returnUrl` and the 409 of a challenge already over (a page
/// to a browser, else the envelope), then the envelope's errors a page's
/// path can get (a payment never challenged: 404).
fn page_responses(method: &str) -> Value {
    let html = || json!({ "text/html": { "schema": { "type": "string" } } });
    let mut responses = Map::new();
    let page = match method {
        "GET" => "The challenge page",
        _ => "The page saying the result, when the pay gave no returnUrl",
    };
    let ok = json!({ "description": page, "headers": response_headers(false), "content": html() });
    responses.insert("200".into(), ok);
    if method == "POST" {
        let mut headers = response_headers(false);
        if let Some(fields) = headers.as_object_mut() {
            let location = json!({
                "description": "The pay's returnUrl, with paymentId and status added to its query.",
                "schema": { "type": "string" },
            });
            fields.insert("location".into(), location);
        }
        let back = json!({
            "description": "Back to the pay's returnUrl; the body is empty",
            "headers": headers,
            "content": html(),
        });
        responses.insert("303".into(), back);
        let mut content = html();
        if let Some(types) = content.as_object_mut() {
            let envelope = json_content(reference("schemas", "ErrorEnvelope"));
            types.extend(envelope.as_object().cloned().unwrap_or_default());
        }
        let over = json!({
            "description": "The challenge is already over, and nothing changed: to a browser (Accept starting with text/html) a page saying how it ended, to any other client the envelope with code -1",
            "headers": response_headers(false),
            "content": content,
        });
        responses.insert("409".into(), over);
    }
    for status in ["400", "404", "414", "431", "500"] {
        let name = format!("Error{status}");
        responses.insert(status.into(), reference("responses", &name));
    }
    Value::Object(responses)
}

/// Code 0 with the route's data, or code -1 for one of its rejections;
/// on a route that takes an `Idempotency-Key`, perhaps a replay.
fn success(op: &Operation, keyed: bool) -> Value {
    let description = if op.rejections.is_empty() {
        String::from("Code 0 and msg `success`")
    } else {
        let named: Vec<String> = op.rejections.iter().map(|r| format!("`{r}`")).collect();
        format!(
            "Code 0 and msg `success`; or code -1 with data null for a business rejection: {}",
            named.join(", ")
        )
    };
    let data = match op.data {
        Some(schema) => json!({ "anyOf": [reference("schemas", schema), { "type": "null" }] }),
        None => json!({ "type": "null" }),
    };
    let mut headers = response_headers(false);
    if let (Some(fields), true) = (headers.as_object_mut(), keyed) {
        let replayed = json!({
            "description": "true on a replay: the answer kept under the request's Idempotency-Key, sent again; nothing ran.",
            "schema": { "type": "string", "enum": ["true"] },
        });
        fields.insert("idempotent-replayed".into(), replayed);
    }
    json!({
        "description": description,
        "headers": headers,
        "content": json_content(json!({
            "type": "object",
            "required": ["code", "msg", "data"],
            "properties": {
                "code": { "type": "integer", "enum": [0, -1] },
                "msg": { "type": "string" },
                "data": data,
            },
        })),
    })
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
fn response_headers(allow: bool) -> Value {
    let mut headers: Map<String, Value> = RESPONSE_HEADERS
        .iter()
        .map(|(name, description, pattern)| {
            let header = json!({
                "description": description,
                "schema": { "type": "string", "pattern": pattern },
            });
            ((*name).into(), header)
        })
        .collect();
    if allow {
        let header = json!({
            "description": "The method the path takes.",
            "schema": { "type": "string" },
        });
        headers.insert("allow".into(), header);
    }
    Value::Object(headers)
}

/// The error answers, in order of status, with what each means.
const ERRORS: [(&str, &str); 10] = [
    (
        "400",
        "Malformed request: msg names the field and the problem",
    ),
    ("404", "No such route; msg offers the nearest one"),
    ("405", "Known path, other method; the allow header names it"),
    (
        "409",
        "The payment's state forbids it (the order's payment awaits its challenge): code -1, msg names the payment, and nothing changed",
    ),
    ("413", "Body over 1 MiB"),
    ("414", "Path and query over 8 KiB"),
    ("415", "A body that is not application/json"),
    ("431", "Headers over 64 KiB together"),
    ("500", "Something broke inside the service"),
    (
        "507",
        "The service keeps its maxOrders already (delete orders or reset it), or its idempotencyKeys (retry without the key, or when keys expire)",
    ),
];

/// The request headers the service reads, in the order operations list
/// them: name, description, and the values it takes (any string when
/// empty). `X-Sim-Outcome` is payment pay's alone.
const HEADER_PARAMETERS: [(&str, &str, &[&str]); 10] = [
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
    (
        "Idempotency-Key",
        "1 to 255 printable ASCII characters. The first request with a key runs and its answer (a success or a business answer, not a 4xx) is kept for 24 hours of the service's clock; the same request again gets that answer with idempotent-replayed: true and runs nothing; another method, path or body with the key is a 400.",
        &[],
    ),
];

fn components() -> Value {
    json!({
        "schemas": schemas(),
        "parameters": header_parameters(),
        "responses": error_responses(),
        "x-limits": {
            "bodyBytes": MAX_BODY_BYTES,
            "pathBytes": MAX_PATH_BYTES,
            "headerBytes": MAX_HEADER_BYTES,
        },
    })
}

/// The request headers, each an optional header parameter.
fn header_parameters() -> Value {
    let parameters = HEADER_PARAMETERS.iter().map(|(name, description, values)| {
        let mut schema = json!({ "type": "string" });
        if let (Some(fields), false) = (schema.as_object_mut(), values.is_empty()) {
            fields.insert("enum".into(), json!(values));
        }
        if *name == "Idempotency-Key" {
            schema = json!({ "type": "string", "minLength": 1, "maxLength": 255, "pattern": "^[ -~]+$" });
        }
        let parameter = json!({
            "name": name,
            "in": "header",
            "required": false,
            "description": description,
            "schema": schema,
        });
        ((*name).into(), parameter)
    });
    Value::Object(parameters.collect())
}

/// The error answers, `Error<status>`: the envelope with the status as code.
fn error_responses() -> Value {
    let responses = ERRORS.iter().map(|(status, description)| {
        let response = json!({
            "description": description,
            "headers": response_headers(*status == "405"),
            "content": json_content(reference("schemas", "ErrorEnvelope")),
        });
        (format!("Error{status}"), response)
    });
    Value::Object(responses.collect())
}

/// `{"type": "object", "required": […], "properties": {…}}`: every
/// schema of a body or of `data` is one.
fn object(required: &[&str], properties: Value) -> Value {
    json!({ "type": "object", "required": required, "properties": properties })
}

/// The schemas of the bodies and of `data`: what the routes read, then
/// what they answer.
fn schemas() -> Value {
    json!({
        "NewOrder": new_order(),
        "NewPayment": new_payment(),
        "Order": order(),
        "Payment": payment(),
        "BatchReport": batch_report(),
        "ErrorEnvelope": object(
            &["code", "msg", "data"],
            json!({
                "code": { "type": "integer", "description": "The HTTP status; -1 on a 409, a business answer" },
                "msg": { "type": "string" },
                "data": { "type": "null" },
            }),
        ),
        "PaymentMethod": { "type": "string", "enum": ["CARD", "WALLET_A", "WALLET_B"] },
    })
}

fn new_order() -> Value {
    object(
        &["userId", "price"],
        json!({
            "userId": { "type": "string", "minLength": 1, "maxLength": 64, "pattern": "\\S" },
            "price": {
                "type": "number",
                "description": "Not above 0: code -1, price must be > 0",
            },
            "description": { "type": ["string", "null"], "maxLength": 1000 },
        }),
    )
}

fn new_payment() -> Value {
    object(
        &["orderId", "amount", "paymentMethod"],
        json!({
            "orderId": { "type": "string" },
            "amount": {
                "type": "number",
                "description": "Not above 0: code -1, amount must be > 0",
            },
            "paymentMethod": reference("schemas", "PaymentMethod"),
        }),
    )
}

/// Unix time in ms, as `createdAt` and `paidAt` are.
fn time() -> Value {
    json!({ "type": "integer", "description": "Unix time in ms" })
}

/// An amount as kept: only a positive one gets in.
fn positive() -> Value {
    json!({ "type": "number", "exclusiveMinimum": 0 })
}

/// An order's id, `ORD-` and 8 characters.
fn order_id() -> Value {
    json!({ "type": "string", "pattern": "^ORD-[A-Z0-9]{8}$" })
}

fn order() -> Value {
    object(
        &[
            "orderId",
            "userId",
            "price",
            "status",
            "description",
            "createdAt",
        ],
        json!({
            "orderId": order_id(),
            "userId": { "type": "string" },
            "price": positive(),
            "status": { "type": "string", "enum": ["CREATED", "PAID"] },
            "description": { "type": "string" },
            "createdAt": time(),
        }),
    )
}

fn payment() -> Value {
    object(
        &[
            "paymentId",
            "orderId",
            "amount",
            "status",
            "paymentMethod",
            "paidAt",
        ],
        json!({
            "paymentId": { "type": "string", "pattern": "^PAY-[A-Z0-9]{8}$" },
            "orderId": { "type": "string" },
            "amount": positive(),
            "status": { "type": "string", "enum": ["SUCCESS", "REFUNDED"] },
            "paymentMethod": reference("schemas", "PaymentMethod"),
            "paidAt": time(),
        }),
    )
}

fn batch_report() -> Value {
    object(
        &["count", "succeeded", "failed", "orderIds"],
        json!({
            "count": { "type": "integer", "minimum": 1 },
            "succeeded": { "type": "integer", "minimum": 0 },
            "failed": { "type": "integer", "minimum": 0 },
            "orderIds": { "type": "array", "items": order_id() },
        }),
    )
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
    fn every_post_of_the_eight_takes_an_idempotency_key_and_may_answer_a_replay() {
        let doc = doc();
        for (method, template, kind) in ROUTES {
            let op = &doc["paths"][template][method.to_ascii_lowercase()];
            let takes = op["parameters"]
                .as_array()
                .into_iter()
                .flatten()
                .any(|p| p["$ref"] == "#/components/parameters/Idempotency-Key");
            let replay = &op["responses"]["200"]["headers"]["idempotent-replayed"];
            let keyed = method == "POST" && kind != Kind::ChallengePage;
            assert_eq!(takes, keyed, "{method} {template}");
            assert_eq!(replay.is_object(), keyed, "{method} {template}");
            assert_eq!(
                op["responses"]["507"].is_object(),
                keyed || template.contains("batch")
            );
        }
    }

    #[test]
    fn the_challenge_page_answers_html_and_its_post_a_303_or_a_409() {
        let doc = doc();
        let item = &doc["paths"]["/api/payment/{paymentId}/challenge"];
        for method in ["get", "post"] {
            let ok = &item[method]["responses"]["200"]["content"];
            assert!(ok["text/html"].is_object(), "{method}");
            assert!(ok["application/json"].is_null(), "{method}");
            assert!(item[method]["responses"]["404"].is_object(), "{method}");
        }
        let post = &item["post"];
        assert!(item["get"]["responses"]["303"].is_null());
        assert!(post["responses"]["303"]["headers"]["location"].is_object());
        let conflict = &post["responses"]["409"]["content"];
        assert!(conflict["text/html"].is_object());
        assert_eq!(
            conflict["application/json"]["schema"]["$ref"],
            "#/components/schemas/ErrorEnvelope"
        );
        let outcome = post["parameters"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|p| p["in"] == "query" && p["name"] == "outcome");
        assert_eq!(
            outcome.map(|p| p["schema"]["enum"].clone()),
            Some(serde_json::json!(["pass", "fail", "abandon"]))
        );
        // The pay's 409 (a challenge open) is the envelope's, and no other
        // of the eight gets one.
        let pay = &doc["paths"]["/api/payment/pay"]["post"]["responses"]["409"];
        assert_eq!(pay["$ref"], "#/components/responses/Error409");
        assert!(doc["paths"]["/api/order/create"]["post"]["responses"]["409"].is_null());
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
    fn the_document_is_valid_json_with_its_sections() {
        let doc = doc();
        assert_eq!(doc["openapi"], "3.1.0");
        assert_eq!(doc["paths"].as_object().map(|p| p.len()), Some(9));
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
