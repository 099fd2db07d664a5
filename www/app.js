// The first page: runs the spec's typical flow through the package and
// shows each request, its envelope, and the log records it left.
import init, { Service } from "./pkg/orderpay.js";

await init();
const service = new Service({ seed: Date.now() % 1e9 });

function cell(text) {
  const td = document.createElement("td");
  td.textContent = text ?? "";
  return td;
}

function show(label, method, path, body) {
  const reply = service.handle(method, path, body);
  const li = document.createElement("li");
  li.className = reply.code === 0 ? "ok" : "fail";
  const title = document.createElement("strong");
  title.textContent = `${label}: ${method} ${path}`;
  const pre = document.createElement("pre");
  pre.textContent = JSON.stringify(reply, null, 2);
  li.append(title, pre);
  document.querySelector("#steps").append(li);
  return reply;
}

function showLogs() {
  const rows = service.logs().map((r) => {
    const tr = document.createElement("tr");
    tr.append(cell(r.seq), cell(r.stage), cell(r.traceId.slice(0, 8)), cell(r.uri), cell(r.event_class), cell(r.duration), cell(r.status));
    return tr;
  });
  document.querySelector("#logs").replaceChildren(...rows);
}

document.querySelector("#run-flow").addEventListener("click", () => {
  document.querySelector("#steps").replaceChildren();
  const order = show("1. Create an order", "POST", "/api/order/create", { userId: "u-1", price: 25.5, description: "two coffees" });
  const id = order.data.orderId;
  show("2. Read the order", "GET", `/api/order/${id}`);
  let pay = show("3. Pay", "POST", "/api/payment/pay", { orderId: id, amount: 25.5, paymentMethod: "CARD" });
  while (pay.code !== 0) pay = show("3. Pay again", "POST", "/api/payment/pay", { orderId: id, amount: 25.5, paymentMethod: "CARD" });
  show("4. Mark the order paid", "POST", `/api/order/${id}/pay`);
  show("5. Delete the paid order (fails)", "POST", `/api/order/delete/${id}`);
  show("6. Read the payment", "GET", `/api/payment/${pay.data.paymentId}`);
  show("7. Refund", "POST", `/api/payment/refund/${pay.data.paymentId}`);
  showLogs();
});
document.body.dataset.ready = "true";
