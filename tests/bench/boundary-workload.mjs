// The typical flow through one entry of a built package, for
// boundary-instructions.sh to count: `fetch` runs createFetch as
// tests/bench/peer.mjs does (create, pay, read back, each answer's JSON
// read), `handle` runs Service.handle as tests/bench/handle.mjs does with
// JSON text bodies (create, read, pay until accepted, mark paid). Prints
// the requests made as {"requests":N}.
// Usage: node tests/bench/boundary-workload.mjs PKG_DIR fetch|handle CLIENTS
const [dir, entry, count] = process.argv.slice(2);
const clients = Number(count);
const { Service } = await import(`${dir}/node.js`);
let requests = 0;
if (entry === "fetch") {
  const { createFetch } = await import(`${dir}/fetch.js`);
  const fetchFn = createFetch({ service: new Service({ seed: 1, failureRate: 0 }), warn: false });
  const json = { "content-type": "application/json" };
  for (let n = 0; n < clients; n++) {
    const order = { userId: `u${n % 50}`, price: (n % 500) + 1.5, description: "peer" };
    const created = await (await fetchFn("http://localhost/api/order/create", {
      method: "POST", headers: json, body: JSON.stringify(order),
    })).json();
    const id = created.data.orderId;
    await (await fetchFn("http://localhost/api/payment/pay", {
      method: "POST", headers: json, body: JSON.stringify({ orderId: id, amount: 1.5, paymentMethod: "CARD" }),
    })).json();
    await (await fetchFn(`http://localhost/api/order/${id}`)).json();
    requests += 3;
  }
} else if (entry === "handle") {
  const service = new Service({ seed: 1 });
  for (let n = 0; n < clients; n++) {
    const order = { userId: `bench-${n % 50}`, price: (n % 500) + 1.5, description: "benchmark order" };
    const created = service.handle("POST", "/api/order/create", JSON.stringify(order));
    const id = created.data.orderId;
    service.handle("GET", `/api/order/${id}`);
    const body = JSON.stringify({ orderId: id, amount: 1.5, paymentMethod: "CARD" });
    requests += 3;
    while (service.handle("POST", "/api/payment/pay", body).code !== 0) requests += 1;
    service.handle("POST", `/api/order/${id}/pay`);
    requests += 1;
  }
} else {
  throw new Error(`expected fetch or handle, got ${entry}`);
}
console.log(JSON.stringify({ requests }));
