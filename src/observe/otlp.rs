//! Spans as OTLP/JSON, the OpenTelemetry wire format in its JSON form, so
//! a trace from this service can be sent to a collector, Jaeger or any
//! tool that reads OpenTelemetry.

use serde_json::{json, Value};

use super::span::{Component, Span};
use super::status::LogStatus;
use super::trace::trace_id_128;

const COMPONENTS: [Component; 5] = [
    Component::Gateway,
    Component::OrderService,
    Component::PaymentService,
    Component::ThirdParty,
    Component::TestData,
];

/// An `ExportTraceServiceRequest`: one resource per component, so each
/// shows as its own service in a tracing tool.
pub fn export<'a>(spans: impl Iterator<Item = &'a Span> + Clone) -> Value {
    let resource_spans: Vec<Value> = COMPONENTS
        .iter()
        .filter_map(|component| {
            let spans: Vec<Value> = spans
                .clone()
                .filter(|s| s.component == *component)
                .map(span)
                .collect();
            (!spans.is_empty()).then(|| {
                json!({
                    "resource": {"attributes": [
                        attribute("service.name", &Value::from(component.name())),
                        attribute("service.namespace", &Value::from("orderpay")),
                    ]},
                    "scopeSpans": [{
                        "scope": {"name": "orderpay", "version": env!("CARGO_PKG_VERSION")},
                        "spans": spans,
                    }],
                })
            })
        })
        .collect();
    json!({ "resourceSpans": resource_spans })
}

fn span(s: &Span) -> Value {
    // SpanKind: 2 is SERVER, 3 is CLIENT (the payment service calling out).
    let kind = if s.component == Component::ThirdParty {
        3
    } else {
        2
    };
    let nanos = |ms: i64| (i128::from(ms) * 1_000_000).to_string();
    let mut out = json!({
        "traceId": trace_id_128(&s.trace_id),
        "spanId": s.span_id,
        "name": s.name,
        "kind": kind,
        "startTimeUnixNano": nanos(s.start),
        "endTimeUnixNano": nanos(s.end),
        "attributes": s.attributes.iter().map(|(k, v)| attribute(k, v)).collect::<Vec<_>>(),
        "status": match s.status {
            LogStatus::ServerError => json!({"code": 2, "message": "server_error"}),
            _ => json!({}),
        },
    });
    if let (Some(parent), Some(map)) = (&s.parent_span_id, out.as_object_mut()) {
        map.insert("parentSpanId".to_owned(), Value::from(parent.as_str()));
    }
    out
}

/// An OTLP `KeyValue`; integers go as strings, as OTLP/JSON encodes int64.
fn attribute(key: &str, value: &Value) -> Value {
    let any = match value {
        Value::Bool(b) => json!({"boolValue": b}),
        Value::Number(n) if n.is_i64() || n.is_u64() => json!({"intValue": n.to_string()}),
        Value::Number(n) => json!({"doubleValue": n.as_f64()}),
        Value::String(s) => json!({"stringValue": s}),
        other => json!({"stringValue": other.to_string()}),
    };
    json!({"key": key, "value": any})
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(component: Component, parent: Option<&str>) -> Span {
        Span {
            trace_id: "463ac35c9f6413ad".into(),
            span_id: "00f067aa0ba902b7".into(),
            parent_span_id: parent.map(str::to_owned),
            name: "POST /api/payment/pay".into(),
            component,
            start: 1_700_000_000_000,
            end: 1_700_000_000_125,
            status: LogStatus::ServerError,
            attributes: vec![
                ("http.response.status_code".into(), Value::from(200)),
                ("retry".into(), Value::from(false)),
            ],
        }
    }

    #[test]
    fn spans_group_by_component_with_otlp_field_encodings() {
        let spans = [
            sample(Component::Gateway, None),
            sample(Component::ThirdParty, Some("a2fb4a1d1a96d312")),
        ];
        let out = export(spans.iter());
        let resources = out["resourceSpans"].as_array().cloned().unwrap_or_default();
        assert_eq!(resources.len(), 2);
        assert_eq!(
            resources[0]["resource"]["attributes"][0]["value"]["stringValue"],
            "gateway"
        );
        let gateway = &resources[0]["scopeSpans"][0]["spans"][0];
        assert_eq!(gateway["traceId"], "0000000000000000463ac35c9f6413ad");
        assert_eq!(gateway["startTimeUnixNano"], "1700000000000000000");
        assert_eq!(gateway["endTimeUnixNano"], "1700000000125000000");
        assert_eq!(gateway["kind"], 2);
        assert!(gateway.get("parentSpanId").is_none());
        assert_eq!(gateway["attributes"][0]["value"]["intValue"], "200");
        assert_eq!(gateway["attributes"][1]["value"]["boolValue"], false);
        assert_eq!(gateway["status"]["code"], 2);
        let third = &resources[1]["scopeSpans"][0]["spans"][0];
        assert_eq!(
            (third["kind"].as_i64(), third["parentSpanId"].as_str()),
            (Some(3), Some("a2fb4a1d1a96d312"))
        );
    }
}
