// The eight routes of the spec's part 4, as the console offers them: the
// method, the path with its parameters, a sensible body, and a line on
// what each does. Only the page's pre-filled values live here; every
// answer comes from the service.

export const ROUTES = [
  {
    id: "order-create", group: "Order", label: "Create an order", method: "POST", path: "/api/order/create",
    help: "Makes an order in status CREATED. price must be above 0; try 0 for the business error, or break the JSON for a 400.",
    body: () => ({ userId: "u-1", price: 25.5, description: "two coffees" }),
  },
  {
    id: "order-get", group: "Order", label: "Read an order", method: "GET", path: "/api/order/{orderId}",
    help: "Returns the order. An unknown id answers code -1, Order not found.",
  },
  {
    id: "order-pay", group: "Order", label: "Mark an order paid", method: "POST", path: "/api/order/{orderId}/pay",
    help: "Marks the order PAID. Paying never does this by itself: the spec keeps the two steps apart.",
  },
  {
    id: "order-delete", group: "Order", label: "Delete an order", method: "POST", path: "/api/order/delete/{orderId}",
    help: "Deletes an order that is not paid; a paid one answers code -1, Paid order cannot be deleted.",
  },
  {
    id: "payment-pay", group: "Payment", label: "Pay for an order", method: "POST", path: "/api/payment/pay",
    help: "Calls the simulated third party: about 7 in 10 attempts succeed, the rest answer code -1, Third party payment failed.",
    body: (ids) => {
      const orderId = ids.orders[0] ?? "ORD-00000000";
      return { orderId, amount: ids.prices.get(orderId) ?? 25.5, paymentMethod: "CARD" };
    },
  },
  {
    id: "payment-get", group: "Payment", label: "Read a payment", method: "GET", path: "/api/payment/{paymentId}",
    help: "Returns the payment. An unknown id answers code -1, Payment not found.",
  },
  {
    id: "payment-refund", group: "Payment", label: "Refund a payment", method: "POST", path: "/api/payment/refund/{paymentId}",
    help: "Refunds a SUCCESS payment (it becomes REFUNDED); a second refund answers code -1.",
  },
  {
    id: "test-batch", group: "Test data", label: "Generate test orders", method: "GET", path: "/api/test/order/batch?count={count}",
    help: "One request that creates, pays and marks paid count orders (1 to 10000), all inside this call. The Test data section below runs large counts in chunks instead.",
  },
  {
    id: "custom", group: "Anything else", label: "Any method and path", method: "GET", path: "",
    help: "Send what you like: a typo in the path gets a 404 with a hint, a wrong method a 405 with an allow header.",
    body: () => ({}),
  },
];

export const PARAMS = {
  orderId: { label: "orderId", list: "order-ids", fallback: (ids) => ids.orders[0] ?? "" },
  paymentId: { label: "paymentId", list: "payment-ids", fallback: (ids) => ids.payments[0] ?? "" },
  count: { label: "count", list: null, fallback: () => "5" },
};

/** The names of a path's parameters, in order: "/api/order/{orderId}/pay" → ["orderId"]. */
export function paramsOf(path) {
  return [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
}

/** The path with its parameters filled in, exactly as typed (no encoding: what you see is sent). */
export function fill(path, values) {
  return path.replace(/\{(\w+)\}/g, (_m, name) => values[name] ?? "");
}
