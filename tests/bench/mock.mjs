// The peer of the speed benchmarks: the same routes written by hand in
// plain JS, the way a front-end developer would in an afternoon. Orders and
// payments in Maps, the bodies validated, a 30% failure on payment, three
// log records per request (gateway, service, response) with a trace id.
// No imports, so the Chromium benchmark can send its source to the page.
export function createMock({ failureRate = 0.3, logCapacity = 10000 } = {}) {
  const orders = new Map();
  const payments = new Map();
  const logs = [];
  const METHODS = ["CARD", "WALLET_A", "WALLET_B"];
  const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

  function newId(prefix) {
    let id = prefix;
    for (let i = 0; i < 8; i++) id += ALPHABET[Math.floor(Math.random() * ALPHABET.length)];
    return id;
  }

  function traceId() {
    let id = "";
    for (let i = 0; i < 4; i++) id += Math.floor(Math.random() * 2 ** 32).toString(16).padStart(8, "0");
    return id;
  }

  function log(record) {
    logs.push({ ...record, timestamp: Date.now() });
    if (logs.length > logCapacity) logs.shift();
  }

  const ok = (data = null) => ({ code: 0, msg: "success", data });
  const fail = (msg) => ({ code: -1, msg, data: null });
  const bad = (msg) => ({ code: 400, msg, data: null });

  function parse(body) {
    if (typeof body !== "string") return body ?? null;
    try {
      return JSON.parse(body);
    } catch {
      return undefined;
    }
  }

  function createOrder(body) {
    if (!body || typeof body !== "object") return bad("body: a JSON object is required");
    if (typeof body.userId !== "string" || body.userId.trim() === "") return bad("userId: required");
    if (typeof body.price !== "number") return bad("price: expected a number");
    if (body.description != null && typeof body.description !== "string") return bad("description: expected a string");
    if (!(body.price > 0)) return fail("price must be > 0");
    const order = {
      orderId: newId("ORD-"),
      userId: body.userId,
      price: body.price,
      status: "CREATED",
      description: body.description ?? "",
      createdAt: Date.now(),
    };
    orders.set(order.orderId, order);
    return ok(order);
  }

  function pay(body) {
    if (!body || typeof body !== "object") return bad("body: a JSON object is required");
    if (typeof body.orderId !== "string") return bad("orderId: required");
    if (typeof body.amount !== "number") return bad("amount: expected a number");
    if (!METHODS.includes(body.paymentMethod)) return bad("paymentMethod: unknown");
    if (!orders.has(body.orderId)) return fail("Order not found");
    if (!(body.amount > 0)) return fail("amount must be > 0");
    if (Math.random() < failureRate) return fail("Third party payment failed");
    const payment = {
      paymentId: newId("PAY-"),
      orderId: body.orderId,
      amount: body.amount,
      status: "SUCCESS",
      paymentMethod: body.paymentMethod,
      paidAt: Date.now(),
    };
    payments.set(payment.paymentId, payment);
    return ok(payment);
  }

  function route(method, parts, body) {
    const [, api, group, a, b] = parts;
    if (api !== "api") return null;
    if (group === "order") {
      if (method === "POST" && a === "create") return createOrder(parse(body));
      if (method === "POST" && a === "delete") {
        const order = orders.get(b);
        if (!order) return fail("Order not found");
        if (order.status === "PAID") return fail("Paid order cannot be deleted");
        orders.delete(b);
        return ok();
      }
      if (method === "GET" && a && !b) return orders.has(a) ? ok(orders.get(a)) : fail("Order not found");
      if (method === "POST" && b === "pay") {
        const order = orders.get(a);
        if (!order) return fail("Order not found");
        if (order.status === "PAID") return fail("Order already paid");
        order.status = "PAID";
        return ok();
      }
    }
    if (group === "payment") {
      if (method === "POST" && a === "pay") return pay(parse(body));
      if (method === "GET" && a && !b) return payments.has(a) ? ok(payments.get(a)) : fail("Payment not found");
      if (method === "POST" && a === "refund") {
        const payment = payments.get(b);
        if (!payment) return fail("Payment not found");
        if (payment.status !== "SUCCESS") return fail("Only success payment can be refunded");
        payment.status = "REFUNDED";
        return ok();
      }
    }
    return null;
  }

  return {
    logs,
    handle(method, path, body, headers) {
      const trace = headers?.["X-B3-TraceId"] ?? traceId();
      const uri = path.split("?")[0];
      const upper = method.toUpperCase();
      log({ stage: "gateway", traceId: trace, method: upper, uri });
      const started = performance.now();
      const answer = route(upper, uri.split("/"), body) ?? { code: 404, msg: `No route for ${upper} ${uri}`, data: null };
      const duration = performance.now() - started;
      const status = answer.code >= 400 ? "client_error" : answer.msg === "Third party payment failed" ? "server_error" : "success";
      if (answer.code < 400) log({ stage: "service", traceId: trace, event_class: uri.split("/")[2], duration, status });
      log({ stage: "response", traceId: trace, method: upper, uri, duration, status, code: answer.code, msg: answer.msg });
      return answer;
    },
  };
}
