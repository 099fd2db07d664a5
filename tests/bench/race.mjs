// The race of tests/bench/handle.mjs, shared with
// tests/bench/build-settings.mjs, which runs it on each build of the
// module: Service.handle against the hand-written JS mock on the same
// workload, best of three rounds that take turns.

/**
 * The typical flow, as a page would drive it: create an order, read it,
 * pay until the third party accepts, mark it paid. Bodies are JSON text,
 * or objects when `objects` is set. No imports: it also runs in the page.
 */
export function race({ makeService, makeMock, clients, objects }) {
  const workload = (api) => {
    const start = performance.now();
    let requests = 0;
    for (let n = 0; n < clients; n++) {
      const order = { userId: `bench-${n % 50}`, price: (n % 500) + 1.5, description: "benchmark order" };
      const created = api.handle("POST", "/api/order/create", objects ? order : JSON.stringify(order));
      requests += 1;
      if (created.code !== 0) continue;
      const id = created.data.orderId;
      api.handle("GET", `/api/order/${id}`);
      const pay = { orderId: id, amount: 1.5, paymentMethod: "CARD" };
      const body = objects ? pay : JSON.stringify(pay);
      requests += 1;
      for (;;) {
        requests += 1;
        if (api.handle("POST", "/api/payment/pay", body).code === 0) break;
      }
      api.handle("POST", `/api/order/${id}/pay`);
      requests += 1;
    }
    return requests / ((performance.now() - start) / 1000);
  };
  const best = { service: 0, mock: 0 };
  for (let round = 0; round < 3; round++) {
    const service = makeService();
    best.service = Math.max(best.service, workload(service));
    service.free();
    best.mock = Math.max(best.mock, workload(makeMock()));
  }
  return { service: Math.round(best.service), mock: Math.round(best.mock), ratio: +(best.service / best.mock).toFixed(2) };
}
