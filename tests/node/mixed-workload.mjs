// The mixed workload that crashed Node (V8's deoptimizer, "unreachable
// code") in 4 of 10 runs before the binding took plain data: typical flows
// through Service.handle, then through createFetch, in one process.
// `flows` is plain code with no imports, so the crash test can run the
// same function in Chromium. Run alone: node tests/node/mixed-workload.mjs
// [direct flows, default 22000] [fetch flows, default 1100]

/** Runs the flows; resolves with how many requests were answered. */
export async function flows({ Service, createFetch, base, direct = 22000, viaFetch = 1100 }) {
  const J = { "Content-Type": "application/json" };
  let requests = 0;
  async function flow(call) {
    const c = await call("POST", "/api/order/create", { userId: "u1", price: 19.99, description: "coffee" });
    const id = c.data.orderId;
    await call("GET", `/api/order/${id}`);
    let p;
    do {
      p = await call("POST", "/api/payment/pay", { orderId: id, amount: 19.99, paymentMethod: "CARD" });
    } while (p.code !== 0);
    await call("POST", `/api/order/${id}/pay`);
    await call("POST", `/api/order/delete/${id}`);
    await call("GET", `/api/payment/${p.data.paymentId}`);
    await call("POST", `/api/payment/refund/${p.data.paymentId}`);
  }
  const s = new Service({ seed: 1 });
  const viaHandle = async (m, path, b) => {
    requests += 1;
    return s.handle(m, path, b ? JSON.stringify(b) : null, J);
  };
  for (let i = 0; i < direct; i++) await flow(viaHandle);
  const f = createFetch({ service: new Service({ seed: 1 }), warn: false });
  const viaFetchCall = async (method, path, b) => {
    requests += 1;
    const init = b ? { method, headers: J, body: JSON.stringify(b) } : { method };
    return (await f(base + path, init)).json();
  };
  for (let i = 0; i < viaFetch; i++) await flow(viaFetchCall);
  return requests;
}

if (process.argv[1] === new URL(import.meta.url).pathname) {
  const { Service } = await import("../../pkg/node.js");
  const { createFetch } = await import("../../pkg/fetch.inline.js");
  const direct = Number(process.argv[2] ?? 22000);
  const viaFetch = Number(process.argv[3] ?? 1100);
  const requests = await flows({ Service, createFetch, base: "http://localhost", direct, viaFetch });
  console.log(`ok: ${requests} requests`);
}
