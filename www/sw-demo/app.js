// A plain app: it knows nothing of orderpay. It runs the spec's typical
// flow against /api/ with fetch (and one XMLHttpRequest, as axios would in a
// browser), shows each reply, and leaves them in window.results.

async function call(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  return { status: response.status, traceId: response.headers.get("x-b3-traceid"), body: await response.json() };
}

function callWithXhr(method, path) {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, path);
    xhr.onload = () =>
      resolve({ status: xhr.status, traceId: xhr.getResponseHeader("x-b3-traceid"), body: JSON.parse(xhr.responseText) });
    xhr.onerror = () => reject(new Error(`${method} ${path} failed`));
    xhr.send();
  });
}

const results = [];
function show(step, reply) {
  results.push({ step, ...reply });
  const item = document.createElement("li");
  item.textContent = `${step}: HTTP ${reply.status}, code ${reply.body.code}, ${reply.body.msg}`;
  document.querySelector("#steps").append(item);
  return reply;
}

const order = show("create the order", await call("POST", "/api/order/create", {
  userId: "u-1",
  price: 25.5,
  description: "two coffees",
}));
const orderId = order.body.data?.orderId;
show("read the order", await callWithXhr("GET", `/api/order/${orderId}`));
const pay = show("pay with the orderId", await call("POST", "/api/payment/pay", {
  orderId,
  amount: 25.5,
  paymentMethod: "CARD",
}));
show("mark the order paid", await call("POST", `/api/order/${orderId}/pay`));
show("delete the paid order", await call("POST", `/api/order/delete/${orderId}`));
const paymentId = pay.body.data?.paymentId ?? "PAY-NONE0000";
show("read the payment", await call("GET", `/api/payment/${paymentId}`));
show("refund the payment", await call("POST", `/api/payment/refund/${paymentId}`));

window.results = results;
document.body.dataset.done = "true";
