//! The parsing edge: request bodies and queries turned into the domain's
//! values, once. A malformed field is a 400 naming it (the outer error); a
//! well-formed body the business rules refuse is a documented rejection
//! (the inner one).

use crate::prelude::*;

use crate::json::message::{msg, Q};

use super::body::{bounded_text, quote, Fields};
use super::error::ApiError;
use super::request::Target;
use crate::domain::money::Money;
use crate::domain::order::{MAX_DESCRIPTION_CHARS, MAX_USER_ID_CHARS};
use crate::domain::payment::PayExtras;
use crate::domain::test_card::{self, TestCard};
use crate::domain::{NewOrder, NewPayment, PaymentMethod, Rejection};

/// The most orders one test-data request may generate.
pub const MAX_COUNT: u32 = 10_000;

/// Outer error: the body is malformed (400). Inner: the body is well
/// formed but the spec's business rule refuses it (`price must be > 0`).
pub fn new_order(body: &impl Fields) -> Result<Result<NewOrder, Rejection>, ApiError> {
    let user_id = bounded_text("userId", body.string("userId")?, MAX_USER_ID_CHARS, true)?;
    let price = body.number("price")?;
    let description = body.optional_string("description")?.unwrap_or_default();
    let description = bounded_text("description", description, MAX_DESCRIPTION_CHARS, false)?;
    Ok(Money::positive(price)
        .map(|price| NewOrder {
            user_id,
            price,
            description,
        })
        .ok_or(Rejection::PriceNotPositive))
}

/// Outer error: malformed (400). Inner: `amount must be > 0`.
pub fn new_payment(body: &impl Fields) -> Result<Result<NewPayment, Rejection>, ApiError> {
    let order_id = body.string("orderId")?.to_owned();
    let amount = body.number("amount")?;
    let method_text = body.string("paymentMethod")?;
    let method = PaymentMethod::parse(method_text).ok_or_else(|| {
        ApiError::bad(
            "paymentMethod",
            msg!(
                "must be one of CARD, WALLET_A, WALLET_B, got ",
                Q(method_text)
            ),
        )
    })?;
    // Only a body with more members than the spec's three may hold
    // `cardNumber` or `returnUrl`: the common pay looks for neither.
    let extras = match body.member_count() > 3 {
        true => pay_extras(body, method)?,
        false => None,
    };
    Ok(Money::positive(amount)
        .map(|amount| NewPayment {
            order_id,
            amount,
            method,
            extras,
        })
        .ok_or(Rejection::AmountNotPositive))
}

/// `cardNumber` and `returnUrl`, when the body has either. A card number
/// goes with `paymentMethod` `CARD` only: a wallet has none.
#[cold]
#[inline(never)]
fn pay_extras(
    body: &impl Fields,
    method: PaymentMethod,
) -> Result<Option<Box<PayExtras>>, ApiError> {
    let card = match body.optional_string("cardNumber")? {
        None => None,
        Some(_) if method != PaymentMethod::Card => {
            let problem = msg!(
                "only for paymentMethod CARD, got paymentMethod ",
                Q(method.as_str())
            );
            return Err(ApiError::bad("cardNumber", problem));
        }
        Some(text) => Some(card_of(text)?),
    };
    let return_url = match body.optional_string("returnUrl")? {
        None => None,
        Some(text) => Some(return_url(text)?),
    };
    let given = card.is_some() || return_url.is_some();
    Ok(given.then(|| Box::new(PayExtras { card, return_url })))
}

/// A test card's number, spaces and dashes allowed; any other is a 400
/// that says where the cards are listed (the docs ship in the package).
#[inline(never)]
fn card_of(text: &str) -> Result<&'static TestCard, ApiError> {
    test_card::find(text).ok_or_else(|| {
        let problem = msg!(
            "must be one of the test cards' numbers (docs/async-payments.md#the-test-cards), got ",
            Q(text)
        );
        ApiError::bad("cardNumber", problem)
    })
}

/// The longest `returnUrl`.
pub const MAX_RETURN_URL: usize = 2048;

/// Where the challenge page sends the buyer back: an absolute http(s)
/// URL, or a path from the root (not `//`); at most 2048 characters,
/// no control characters.
#[inline(never)]
fn return_url(text: &str) -> Result<String, ApiError> {
    let problem = if text.chars().count() > MAX_RETURN_URL {
        Some(msg!("expected at most ", MAX_RETURN_URL, " characters"))
    } else if text.chars().any(char::is_control) {
        Some("must not hold control characters".to_owned())
    } else {
        let rest = text
            .strip_prefix("https://")
            .or_else(|| text.strip_prefix("http://"));
        let fits = match rest {
            Some(rest) => !rest.is_empty() && !rest.starts_with('/'),
            None => text.starts_with('/') && !text.starts_with("//"),
        };
        (!fits).then(|| {
            msg!(
                "must be an absolute http(s) URL or a path starting with /, got ",
                Q(text)
            )
        })
    };
    match problem {
        Some(problem) => Err(ApiError::bad("returnUrl", problem)),
        None => Ok(text.to_owned()),
    }
}

/// `count`: a whole number from 1 to 10000, digits only.
pub fn count(target: &Target) -> Result<u32, ApiError> {
    let problem = |got: String| {
        ApiError::bad(
            "count",
            msg!(
                "must be a whole number from 1 to ",
                MAX_COUNT,
                ", got ",
                got
            ),
        )
    };
    let text = target
        .param("count")
        .ok_or_else(|| problem("nothing".to_owned()))?;
    let valid = !text.is_empty() && text.len() <= 6 && text.bytes().all(|b| b.is_ascii_digit());
    // At most six digits: their value is read without core's integer
    // parser, whose code for `u32` the module would carry for this alone.
    let n = match valid {
        true => text.bytes().fold(0, |n, b| n * 10 + u32::from(b - b'0')),
        false => 0,
    };
    match n {
        1..=MAX_COUNT => Ok(n),
        _ => Err(problem(quote(text))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gateway::body::JsonBody;
    use crate::gateway::request::{Headers, Text};

    fn order(text: &str) -> Result<Result<NewOrder, Rejection>, ApiError> {
        let text: &'static Text = Box::leak(Box::new(Text::from(text)));
        let body = JsonBody::parse(Some(text), &Headers::default())?;
        new_order(&body)
    }

    fn payment(text: &str) -> Result<Result<NewPayment, Rejection>, ApiError> {
        let text: &'static Text = Box::leak(Box::new(Text::from(text)));
        new_payment(&JsonBody::parse(Some(text), &Headers::default())?)
    }

    #[test]
    fn a_valid_body_parses_into_a_new_order() {
        let parsed = order(r#"{"userId":"u1","price":12.5,"description":"tea"}"#);
        let order = parsed.ok().and_then(Result::ok);
        assert_eq!(order.as_ref().map(|o| o.price.get()), Some(12.5));
        assert_eq!(
            order.map(|o| (o.user_id, o.description)),
            Some(("u1".into(), "tea".into()))
        );
    }

    #[test]
    fn description_is_optional() {
        let parsed = order(r#"{"userId":"u1","price":1}"#)
            .ok()
            .and_then(Result::ok);
        assert_eq!(parsed.map(|o| o.description), Some(String::new()));
    }

    #[test]
    fn a_price_not_above_zero_is_the_business_rejection_not_a_400() {
        for price in ["0", "-1", "-0.0"] {
            let parsed = order(&format!(r#"{{"userId":"u1","price":{price}}}"#));
            assert_eq!(parsed, Ok(Err(Rejection::PriceNotPositive)), "{price}");
        }
    }

    #[test]
    fn malformed_fields_are_400s_naming_the_field() {
        let msg = |body: &str| order(body).err().map(|e| e.msg()).unwrap_or_default();
        assert_eq!(msg(r#"{"price":1}"#), "userId: required field is missing");
        assert_eq!(
            msg(r#"{"userId":7,"price":1}"#),
            "userId: expected a string, got number 7"
        );
        assert_eq!(
            msg(r#"{"userId":"u","price":"1"}"#),
            "price: expected a number, got string \"1\""
        );
        assert_eq!(msg(r#"{"userId":"u"}"#), "price: required field is missing");
        assert_eq!(
            msg(r#"{"userId":"u","price":1,"description":[]}"#),
            "description: expected a string, got an array"
        );
        let long = format!(r#"{{"userId":"{}","price":1}}"#, "u".repeat(65));
        assert_eq!(msg(&long), "userId: must be at most 64 characters, got 65");
    }

    #[test]
    fn pay_bodies_parse_or_name_the_field() {
        let ok = payment(r#"{"orderId":"ORD-1","amount":9.5,"paymentMethod":"WALLET_B"}"#);
        assert_eq!(
            ok.ok()
                .and_then(Result::ok)
                .map(|p| (p.amount.get(), p.method)),
            Some((9.5, PaymentMethod::WalletB))
        );
        let msg = |body: &str| payment(body).err().map(|e| e.msg()).unwrap_or_default();
        assert_eq!(
            msg(r#"{"orderId":"ORD-1","amount":1,"paymentMethod":"card"}"#),
            "paymentMethod: must be one of CARD, WALLET_A, WALLET_B, got \"card\""
        );
        assert_eq!(
            msg(r#"{"amount":1,"paymentMethod":"CARD"}"#),
            "orderId: required field is missing"
        );
        assert_eq!(
            msg(r#"{"orderId":"o","amount":true,"paymentMethod":"CARD"}"#),
            "amount: expected a number, got boolean true"
        );
        assert_eq!(
            payment(r#"{"orderId":"o","amount":0,"paymentMethod":"CARD"}"#),
            Ok(Err(Rejection::AmountNotPositive))
        );
    }

    fn count_of(query: &str) -> Result<u32, ApiError> {
        let target = Target::parse(&format!("/api/test/order/batch{query}").into())?;
        count(&target)
    }

    #[test]
    fn count_is_a_whole_number_from_1_to_10000() {
        assert_eq!(count_of("?count=1"), Ok(1));
        assert_eq!(count_of("?count=10000"), Ok(10_000));
        assert_eq!(count_of("?count=007"), Ok(7));
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
            let msg = count_of(bad).err().map(|e| e.msg()).unwrap_or_default();
            assert!(
                msg.starts_with("count: must be a whole number from 1 to 10000, got "),
                "{bad}: {msg}"
            );
        }
    }
}
