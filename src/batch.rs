//! The test-data endpoint: generates orders that each go the way a client's
//! would (create, pay, and mark paid when the payment went through), through
//! the gateway, with a trace id of their own and their own log records.

use serde::{Deserialize, Serialize};

use crate::envelope::{Data, Response};
use crate::error::ApiError;
use crate::gateway;
use crate::payment::PaymentMethod;
use crate::request::{quote, RawRequest, Target};
use crate::service::Service;
use crate::trace;

pub const MAX_COUNT: u32 = 10_000;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BatchReport {
    pub count: u32,
    pub succeeded: u32,
    pub failed: u32,
    pub order_ids: Vec<String>,
}

/// `count`: a whole number from 1 to 10000, digits only.
pub fn parse_count(target: &Target) -> Result<u32, ApiError> {
    let problem = |got: String| {
        ApiError::bad(
            "count",
            format!("must be a whole number from 1 to {MAX_COUNT}, got {got}"),
        )
    };
    let text = target
        .param("count")
        .ok_or_else(|| problem("nothing".to_owned()))?;
    let valid = !text.is_empty() && text.len() <= 6 && text.bytes().all(|b| b.is_ascii_digit());
    match text.parse::<u32>() {
        Ok(n) if valid && (1..=MAX_COUNT).contains(&n) => Ok(n),
        _ => Err(problem(quote(text))),
    }
}

/// Runs `count` simulated clients. Returns the report and the simulated
/// time their requests took together.
pub fn run(svc: &mut Service, count: u32) -> (BatchReport, u64) {
    let mut report = BatchReport {
        count,
        succeeded: 0,
        failed: 0,
        order_ids: Vec::new(),
    };
    let mut spent = 0;
    for _ in 0..count {
        let trace_id = trace::fresh(&mut svc.streams.traces);
        let rng = &mut svc.streams.batch;
        let user = format!("batch-user-{}", 1 + rng.below(20));
        let price = (100 + rng.below(49_901)) as f64 / 100.0;
        let method = PaymentMethod::ALL[rng.below(3) as usize].as_str();
        let call = |method: &str, path: &str| {
            RawRequest::new(method, path)
                .with_header("X-B3-TraceId", &trace_id)
                .with_header("X-User-Id", &user)
        };

        let create = call("POST", "/api/order/create").with_body(
            &serde_json::json!({"userId": user, "price": price, "description": "generated test order"}).to_string(),
        );
        let (created, ms) = send(svc, create);
        spent += ms;
        let Some(Data::Order(order)) = created.body.data else {
            continue;
        };
        report.order_ids.push(order.order_id.clone());

        let pay = call("POST", "/api/payment/pay").with_body(
            &serde_json::json!({"orderId": order.order_id, "amount": price, "paymentMethod": method}).to_string(),
        );
        let (paid, ms) = send(svc, pay);
        spent += ms;
        if paid.body.code != 0 {
            report.failed += 1;
            continue;
        }
        report.succeeded += 1;
        let (_, ms) = send(
            svc,
            call("POST", &format!("/api/order/{}/pay", order.order_id)),
        );
        spent += ms;
    }
    (report, spent)
}

fn send(svc: &mut Service, request: RawRequest) -> (Response, u64) {
    let exchange = gateway::exchange(svc, request);
    (exchange.response, exchange.duration.unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(query: &str) -> Result<u32, ApiError> {
        let target = Target::parse(&format!("/api/test/order/batch{query}").into())?;
        parse_count(&target)
    }

    #[test]
    fn count_is_a_whole_number_from_1_to_10000() {
        assert_eq!(count("?count=1"), Ok(1));
        assert_eq!(count("?count=10000"), Ok(10_000));
        assert_eq!(count("?count=007"), Ok(7));
        for bad in [
            "",
            "?count=",
            "?count=0",
            "?count=10001",
            "?count=-1",
            "?count=1.5",
            "?count=abc",
            "?count=+5",
            "?count=99999999999",
        ] {
            let msg = count(bad).err().map(|e| e.msg()).unwrap_or_default();
            assert!(
                msg.starts_with("count: must be a whole number from 1 to 10000, got "),
                "{bad}: {msg}"
            );
        }
    }
}
