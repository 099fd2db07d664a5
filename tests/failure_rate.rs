//! The simulated third party: about 30% of payments fail (part 1, part 4),
//! and the rate is a setting. Bounds are mean +- 5 standard deviations.

mod common;

use common::*;
use orderpay::Settings;

const PAYMENTS: u64 = 5000;

/// Pays `PAYMENTS` fresh orders once each; returns how many failed, after
/// checking each outcome's exact envelope and the stored payment count.
fn failures(seed: u64, failure_rate: f64) -> u64 {
    let mut settings = Settings::with_seed(seed);
    settings.failure_rate = failure_rate;
    settings.log_capacity = 0;
    let mut svc = service_with(settings);
    let mut failed = 0;
    for i in 0..PAYMENTS {
        let order_id = create_order_id(&mut svc);
        let response = svc.handle(pay_request(&order_id, 10.5, "CARD"));
        assert_eq!(response.status, 200);
        if response.body.code == 0 {
            assert_eq!(data(&response)["status"], "SUCCESS");
        } else {
            assert_eq!(
                body(&response),
                business_error("Third party payment failed")
            );
            failed += 1;
        }
        assert_eq!(svc.payments().len() as u64, i + 1 - failed);
    }
    failed
}

#[test]
fn about_thirty_percent_of_payments_fail_by_default_for_several_seeds() {
    assert_eq!(Settings::with_seed(0).failure_rate, 0.3);
    let (low, high) = five_sigma_bounds(PAYMENTS, 0.3);
    assert_eq!((low, high), (1337, 1663));
    for seed in [1, 2, 3, 42, 2024] {
        let failed = failures(seed, 0.3);
        assert!(
            (low..=high).contains(&failed),
            "seed {seed}: {failed} of {PAYMENTS} failed"
        );
    }
}

#[test]
fn a_failure_rate_of_ten_percent_fails_about_one_payment_in_ten() {
    let (low, high) = five_sigma_bounds(PAYMENTS, 0.1);
    for seed in [1, 7, 99] {
        let failed = failures(seed, 0.1);
        assert!(
            (low..=high).contains(&failed),
            "seed {seed}: {failed} of {PAYMENTS} failed"
        );
    }
}

#[test]
fn a_failure_rate_of_zero_never_fails() {
    assert_eq!(failures(5, 0.0), 0);
}

#[test]
fn a_failure_rate_of_one_always_fails() {
    assert_eq!(failures(5, 1.0), PAYMENTS);
}

#[test]
fn a_retried_payment_is_decided_anew() {
    // With 30% failures, paying the same order repeatedly must see both
    // outcomes, and every failure leaves no payment behind.
    let mut svc = service(31);
    let order_id = create_order_id(&mut svc);
    let codes: Vec<i32> = (0..200)
        .map(|_| svc.handle(pay_request(&order_id, 1.0, "CARD")).body.code)
        .collect();
    let failed = codes.iter().filter(|&&c| c == -1).count();
    assert!(codes.iter().all(|&c| c == 0 || c == -1));
    let (low, high) = five_sigma_bounds(200, 0.3);
    assert!(
        (low as usize..=high as usize).contains(&failed),
        "{failed} of 200 failed"
    );
    assert_eq!(svc.payments().len(), 200 - failed);
}

#[test]
fn a_failure_rate_outside_zero_to_one_is_refused_by_the_settings() {
    for rate in [-0.01, 1.01, f64::NAN, f64::INFINITY] {
        let mut settings = Settings::with_seed(1);
        settings.failure_rate = rate;
        let result = orderpay::Service::new(
            settings,
            Box::new(orderpay::sim::clock::VirtualClock::starting_at(T0)),
        );
        let err = result
            .err()
            .unwrap_or_else(|| panic!("rate {rate} accepted"));
        assert!(err.starts_with("failureRate: "), "{err}");
    }
}
