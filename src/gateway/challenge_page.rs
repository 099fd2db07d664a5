//! The simulated 3-D Secure challenge page, as HTML: self-contained (no
//! external loads, no script), with *Complete*, *Fail* and *Cancel* for
//! a payment awaiting one, or its state once it no longer is; and the
//! page a browser gets for an answer to a challenge already over.

use crate::prelude::*;

use crate::domain::payment::PaymentStatus;
use crate::domain::Payment;
use crate::json::number::display;

const HEAD: &str = "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
<title>orderpay test authentication</title>\
<style>body{font-family:sans-serif;max-width:32rem;margin:3rem auto}\
form{display:inline}button{margin-right:.5rem}</style></head>\
<body><main class=\"card\"><h1>orderpay test authentication</h1>\
<p>A simulated 3-D Secure challenge: no bank or card is involved.</p>";

/// The page of a payment: its id and amount, then the three buttons
/// while it awaits the challenge, or its state once answered (also the
/// page a `POST` answers when the pay gave no `returnUrl`). `over`: the
/// page of an answer to a challenge already over (a browser's Back, then
/// a click), which says so and how it ended, as the payment's state
/// says.
pub fn page(p: &Payment, over: bool) -> String {
    let mut html = String::with_capacity(1800);
    html.push_str(HEAD);
    facts(&mut html, p);
    if p.status == PaymentStatus::RequiresAction {
        html.push_str("<p>Answer as the buyer:</p>");
        for (outcome, label) in [
            ("pass", "Complete"),
            ("fail", "Fail"),
            ("abandon", "Cancel"),
        ] {
            html.push_str("<form method=\"post\" action=\"?outcome=");
            html.push_str(outcome);
            html.push_str("\"><button type=\"submit\" name=\"outcome\" value=\"");
            html.push_str(outcome);
            html.push_str("\">");
            html.push_str(label);
            html.push_str("</button></form>");
        }
    } else {
        // Once answered, by the buyer here, a test or its rule's time.
        html.push_str(match over {
            true => "<p id=\"over\">This challenge is already over, and this answer changed nothing: the payment is ",
            false => "<p id=\"answered\">Answered: the payment is now ",
        });
        html.push_str(p.status.as_str());
        if let Some(reason) = p.failure_reason() {
            html.push_str(" (");
            html.push_str(reason);
            html.push(')');
        }
        html.push_str(".</p>");
    }
    html.push_str("</main></body></html>\n");
    html
}

/// The payment's id, amount, state and, when failed, its decline code.
fn facts(html: &mut String, p: &Payment) {
    html.push_str("<dl><dt>Payment</dt><dd id=\"payment-id\">");
    html.push_str(&p.payment_id);
    html.push_str("</dd><dt>Amount</dt><dd id=\"amount\">");
    html.push_str(&display(p.amount.get()));
    html.push_str("</dd><dt>Status</dt><dd id=\"status\">");
    html.push_str(p.status.as_str());
    html.push_str("</dd>");
    if let Some(code) = p.failure_code() {
        html.push_str("<dt>Failure</dt><dd id=\"failure-code\">");
        html.push_str(code);
        html.push_str("</dd>");
    }
    html.push_str("</dl>");
}
