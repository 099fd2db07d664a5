//! Heap per kept order, natively: the spec's typical flow (create, read,
//! pay with retries, mark paid, a refused delete, read the payment,
//! refund), the live heap counted by the allocator once the log is full
//! (after 2,000 clients) and at the end: the difference over the orders
//! added between is what one order with its payment costs, the spare
//! capacity of growing tables included. Prints one JSON line.
//! `cargo bench --bench memory [clients]`.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use orderpay::sim::clock::VirtualClock;
use orderpay::{Data, RawRequest, Service, Settings};

struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(layout.size(), Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// One client of the typical flow; returns its number of requests.
fn client(service: &mut Service, n: u32) -> u32 {
    let body = format!(
        r#"{{"userId":"u-{}","price":{}.5,"description":"coffee"}}"#,
        n % 50,
        n % 500 + 1
    );
    let created = service.handle(RawRequest::new("POST", "/api/order/create").with_body(&body));
    let Some(Data::Order(order)) = created.body.data else {
        return 1;
    };
    let id = order.order_id;
    service.handle(RawRequest::new("GET", &format!("/api/order/{id}")));
    let pay = format!(r#"{{"orderId":"{id}","amount":1.5,"paymentMethod":"CARD"}}"#);
    let mut requests = 2;
    let payment = loop {
        requests += 1;
        let paid = service.handle(RawRequest::new("POST", "/api/payment/pay").with_body(&pay));
        if let Some(Data::Payment(p)) = paid.body.data {
            break p.payment_id;
        }
    };
    service.handle(RawRequest::new("POST", &format!("/api/order/{id}/pay")));
    service.handle(RawRequest::new("POST", &format!("/api/order/delete/{id}")));
    service.handle(RawRequest::new("GET", &format!("/api/payment/{payment}")));
    service.handle(RawRequest::new(
        "POST",
        &format!("/api/payment/refund/{payment}"),
    ));
    requests + 4
}

fn main() {
    let clients: u32 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(143_000);
    let half = 2_000.min(clients / 2);
    let mut service = Service::new(
        Settings::with_seed(1),
        Box::new(VirtualClock::starting_at(0)),
    )
    .expect("settings");
    let mut requests = (0..half).map(|n| client(&mut service, n)).sum::<u32>();
    let (orders_at_half, live_at_half) = (service.orders().len(), LIVE.load(Ordering::Relaxed));
    requests += (half..clients)
        .map(|n| client(&mut service, n))
        .sum::<u32>();
    let (orders, live) = (service.orders().len(), LIVE.load(Ordering::Relaxed));
    let per_order = (live - live_at_half) as f64 / (orders - orders_at_half) as f64;
    println!(
        "{{\"requests\":{requests},\"orders\":{orders},\"heapMiB\":{:.1},\"bytesPerOrderWithPayment\":{per_order:.0}}}",
        live as f64 / f64::from(1 << 20)
    );
}
