//! The OpenAPI 3.1 document of the eight endpoints, rendered from the route
//! table itself: every route of [`ROUTES`] becomes an operation, and
//! the match on its kind is exhaustive, so a route cannot be added without
//! being documented, nor documented without existing.

use serde_json::{json, Map, Value};

use super::request::{MAX_BODY_BYTES, MAX_HEADER_BYTES, MAX_PATH_BYTES};
use super::route::{Kind, ROUTES};

/// What the document says about one kind of route beyond its method and path.
struct Operation {
    id: &'static str,
    summary: &'static str,
    tag: &'static str,
    /// The schema of the request body, when the route reads one.
    body: Option<&'static str>,
    /// The schema of `data` in a successful answer; none: `data` is null.
    data: Option<&'static str>,
    /// Business rejections it can answer with (HTTP 200, code -1).
    rejections: &'static [&'static str],
}

fn operation(kind: Kind) -> Operation {
    let op = |id, summary, tag, body, data, rejections| Operation {
        id,
        summary,
        tag,
        body,
        data,
        rejections,
    };
    match kind {
        Kind::CreateOrder => op(
            "createOrder",
            "Create an order",
            "order",
            Some("NewOrder"),
            Some("Order"),
            &["price must be > 0"],
        ),
        Kind::GetOrder => op(
            "getOrder",
            "Read an order",
            "order",
            None,
            Some("Order"),
            &["Order not found"],
        ),
        Kind::MarkOrderPaid => op(
            "markOrderPaid",
            "Mark an order paid",
            "order",
            None,
            None,
            &["Order not found", "Order already paid"],
        ),
        Kind::DeleteOrder => op(
            "deleteOrder",
            "Delete an order",
            "order",
            None,
            None,
            &["Order not found", "Paid order cannot be deleted"],
        ),
        Kind::Pay => op(
            "pay",
            "Pay for an order through the simulated third party",
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
            "payment",
            None,
            Some("Payment"),
            &["Payment not found"],
        ),
        Kind::Refund => op(
            "refund",
            "Refund a payment",
            "payment",
            None,
            None,
            &["Payment not found", "Only success payment can be refunded"],
        ),
        Kind::Batch => op(
            "testOrderBatch",
            "Create, pay and mark paid `count` orders, as test data",
            "test",
            None,
            Some("BatchReport"),
            &[],
        ),
    }
}

/// The document as JSON text.
pub fn document() -> String {
    serde_json::to_string_pretty(&document_value()).unwrap_or_default()
}

fn document_value() -> Value {
    let mut paths = Map::new();
    for (method, template, kind) in ROUTES {
        let entry = paths
            .entry(template.to_owned())
            .or_insert_with(|| json!({}));
        if let Value::Object(item) = entry {
            item.insert(method.to_ascii_lowercase(), operation_value(template, kind));
        }
    }
    json!({
        "openapi": "3.1.0",
        "info": {
            "title": "orderpay",
            "version": env!("CARGO_PKG_VERSION"),
            "description": "The order and payment service: eight endpoints behind one gateway, \
                every answer in the {code, msg, data} envelope. Code 0 is success, -1 a business \
                rejection (HTTP 200), and a malformed request gets its HTTP status as the code.",
        },
        "servers": [{ "url": "http://127.0.0.1:4010" }],
        "tags": [
            { "name": "order" },
            { "name": "payment" },
            { "name": "test", "description": "Test data" },
        ],
        "paths": paths,
        "components": components(),
    })
}

fn operation_value(template: &str, kind: Kind) -> Value {
    let op = operation(kind);
    let mut parameters: Vec<Value> = template
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
        parameters.push(json!({
            "name": "count",
            "in": "query",
            "required": true,
            "description": "How many orders, digits only.",
            "schema": { "type": "integer", "minimum": 1, "maximum": 10000 },
        }));
    }
    for name in [
        "X-User-Id",
        "X-B3-TraceId",
        "X-B3-SpanId",
        "X-B3-ParentSpanId",
        "X-B3-Sampled",
        "X-B3-Flags",
        "b3",
        "traceparent",
    ] {
        parameters.push(json!({ "$ref": format!("#/components/parameters/{name}") }));
    }
    if kind == Kind::Pay {
        parameters.push(json!({ "$ref": "#/components/parameters/X-Sim-Outcome" }));
    }

    let data = match op.data {
        Some(schema) => json!({ "anyOf": [
            { "$ref": format!("#/components/schemas/{schema}") },
            { "type": "null" },
        ] }),
        None => json!({ "type": "null" }),
    };
    let mut description = String::from(
        "Code 0 and msg `success`; or code -1 with data null for a business rejection",
    );
    if op.rejections.is_empty() {
        description = String::from("Code 0 and msg `success`");
    } else {
        let quoted: Vec<String> = op.rejections.iter().map(|r| format!("`{r}`")).collect();
        description.push_str(&format!(": {}", quoted.join(", ")));
    }
    let mut responses = Map::new();
    responses.insert(
        "200".to_owned(),
        json!({
            "description": description,
            "headers": response_headers(),
            "content": { "application/json": { "schema": {
                "type": "object",
                "required": ["code", "msg", "data"],
                "properties": {
                    "code": { "type": "integer", "enum": [0, -1] },
                    "msg": { "type": "string" },
                    "data": data,
                },
            } } },
        }),
    );
    let mut errors = vec![400, 404, 405, 414, 431, 500];
    if op.body.is_some() {
        errors.extend([413, 415]);
    }
    if matches!(kind, Kind::CreateOrder | Kind::Batch) {
        // The service keeps as many orders as its maxOrders allows.
        errors.push(507);
    }
    errors.sort_unstable();
    for status in errors {
        responses.insert(
            status.to_string(),
            json!({ "$ref": format!("#/components/responses/Error{status}") }),
        );
    }
    let mut value = json!({
        "operationId": op.id,
        "summary": op.summary,
        "tags": [op.tag],
        "parameters": parameters,
        "responses": responses,
    });
    if let (Some(schema), Value::Object(map)) = (op.body, &mut value) {
        map.insert(
            "requestBody".to_owned(),
            json!({
                "required": true,
                "content": { "application/json": { "schema": {
                    "$ref": format!("#/components/schemas/{schema}")
                } } },
            }),
        );
    }
    value
}

/// Response headers of every answer.
fn response_headers() -> Value {
    let header = |description: &str, pattern: Option<&str>| {
        let mut schema = json!({ "type": "string" });
        if let (Some(p), Value::Object(map)) = (pattern, &mut schema) {
            map.insert("pattern".to_owned(), json!(p));
        }
        json!({ "description": description, "schema": schema })
    };
    json!({
        "x-b3-traceid": header("The request's trace id: the caller's X-B3-TraceId when valid, else a new one.", Some("^[0-9a-f]{16}([0-9a-f]{16})?$")),
        "x-b3-spanid": header("The gateway's span.", Some("^[0-9a-f]{16}$")),
        "x-b3-parentspanid": header("The caller's span, when one came in.", Some("^[0-9a-f]{16}$")),
        "x-b3-sampled": header("1 when spans were recorded, 0 when the caller turned sampling off.", Some("^[01]$")),
        "traceparent": header("The same trace context in W3C form.", Some("^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$")),
        "x-sim-duration-ms": header("The simulated time the request took, in ms.", Some("^[0-9]+$")),
    })
}

fn components() -> Value {
    let mut responses = Map::new();
    for (status, description) in [
        (
            400,
            "Malformed request: msg names the field and the problem",
        ),
        (404, "No such route; msg offers the nearest one"),
        (405, "Known path, other method; the allow header names it"),
        (413, "Body over 1 MiB"),
        (414, "Path and query over 8 KiB"),
        (415, "A body that is not application/json"),
        (431, "Headers over 64 KiB together"),
        (500, "Something broke inside the service"),
        (
            507,
            "The service keeps its maxOrders already; delete orders or reset it",
        ),
    ] {
        let mut headers = response_headers();
        if let (405, Value::Object(map)) = (status, &mut headers) {
            map.insert(
                "allow".to_owned(),
                json!({ "description": "The method the path takes.", "schema": { "type": "string" } }),
            );
        }
        responses.insert(
            format!("Error{status}"),
            json!({
                "description": description,
                "headers": headers,
                "content": { "application/json": { "schema": {
                    "$ref": "#/components/schemas/ErrorEnvelope"
                } } },
            }),
        );
    }

    let header_param = |name: &str, description: &str, schema: Value| json!({ "name": name, "in": "header", "required": false, "description": description, "schema": schema });
    let string = json!({ "type": "string" });
    let parameters = json!({
        "X-User-Id": header_param("X-User-Id", "The caller's user: the log records' userId.", string.clone()),
        "X-B3-TraceId": header_param("X-B3-TraceId", "The trace id, 16 or 32 lower-case hex digits; anything else gets a fresh one.", string.clone()),
        "X-B3-SpanId": header_param("X-B3-SpanId", "The caller's span: the gateway's span becomes its child.", string.clone()),
        "X-B3-ParentSpanId": header_param("X-B3-ParentSpanId", "The caller's parent span.", string.clone()),
        "X-B3-Sampled": header_param("X-B3-Sampled", "0: log the request but record no spans.", string.clone()),
        "X-B3-Flags": header_param("X-B3-Flags", "1: debug, which implies sampled.", string.clone()),
        "b3": header_param("b3", "Single-header B3 context, after X-B3-* in precedence.", string.clone()),
        "traceparent": header_param("traceparent", "W3C trace context, after the B3 headers in precedence.", string),
        "X-Sim-Outcome": header_param("X-Sim-Outcome", "Decides this payment attempt instead of the seeded draw.", json!({ "type": "string", "enum": ["success", "failure"] })),
    });

    let id =
        |prefix: &str| json!({ "type": "string", "pattern": format!("^{prefix}-[A-Z0-9]{{8}}$") });
    let positive = json!({ "type": "number", "exclusiveMinimum": 0 });
    let time = json!({ "type": "integer", "description": "Unix time in ms" });
    json!({
        "schemas": {
            "NewOrder": {
                "type": "object",
                "required": ["userId", "price"],
                "properties": {
                    "userId": { "type": "string", "minLength": 1, "maxLength": 64, "pattern": "\\S" },
                    "price": { "type": "number", "description": "Not above 0: code -1, price must be > 0" },
                    "description": { "type": ["string", "null"], "maxLength": 1000 },
                },
            },
            "NewPayment": {
                "type": "object",
                "required": ["orderId", "amount", "paymentMethod"],
                "properties": {
                    "orderId": { "type": "string" },
                    "amount": { "type": "number", "description": "Not above 0: code -1, amount must be > 0" },
                    "paymentMethod": { "$ref": "#/components/schemas/PaymentMethod" },
                },
            },
            "PaymentMethod": { "type": "string", "enum": ["CARD", "WALLET_A", "WALLET_B"] },
            "Order": {
                "type": "object",
                "required": ["orderId", "userId", "price", "status", "description", "createdAt"],
                "properties": {
                    "orderId": id("ORD"),
                    "userId": { "type": "string" },
                    "price": positive.clone(),
                    "status": { "type": "string", "enum": ["CREATED", "PAID"] },
                    "description": { "type": "string" },
                    "createdAt": time.clone(),
                },
            },
            "Payment": {
                "type": "object",
                "required": ["paymentId", "orderId", "amount", "status", "paymentMethod", "paidAt"],
                "properties": {
                    "paymentId": id("PAY"),
                    "orderId": { "type": "string" },
                    "amount": positive,
                    "status": { "type": "string", "enum": ["SUCCESS", "REFUNDED"] },
                    "paymentMethod": { "$ref": "#/components/schemas/PaymentMethod" },
                    "paidAt": time,
                },
            },
            "BatchReport": {
                "type": "object",
                "required": ["count", "succeeded", "failed", "orderIds"],
                "properties": {
                    "count": { "type": "integer", "minimum": 1 },
                    "succeeded": { "type": "integer", "minimum": 0 },
                    "failed": { "type": "integer", "minimum": 0 },
                    "orderIds": { "type": "array", "items": id("ORD") },
                },
            },
            "ErrorEnvelope": {
                "type": "object",
                "required": ["code", "msg", "data"],
                "properties": {
                    "code": { "type": "integer", "description": "The HTTP status" },
                    "msg": { "type": "string" },
                    "data": { "type": "null" },
                },
            },
        },
        "parameters": parameters,
        "responses": responses,
        "x-limits": {
            "bodyBytes": MAX_BODY_BYTES,
            "pathBytes": MAX_PATH_BYTES,
            "headerBytes": MAX_HEADER_BYTES,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
