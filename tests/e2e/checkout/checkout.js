// The checkout app's one script: create the order, pay it with the card
// typed in, and follow the payment's nextAction as a real app would: the
// buyer goes to the challenge page, which sends the browser back to
// done.html with the result.
const statusLine = document.getElementById("status");

async function call(method, path, body) {
  const res = await fetch(path, {
    method,
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return res.json();
}

async function pay(cardNumber) {
  const order = await call("POST", "/api/order/create", { userId: "checkout-buyer", price: 20 });
  const paid = await call("POST", "/api/payment/pay", {
    orderId: order.data.orderId,
    amount: 20,
    paymentMethod: "CARD",
    cardNumber,
    returnUrl: "/done.html",
  });
  if (paid.code !== 0) {
    statusLine.textContent = `declined: ${paid.msg}`;
    return;
  }
  const payment = paid.data;
  if (payment.status === "REQUIRES_ACTION") {
    // The url is relative to the gateway's base URL, here "/".
    location.assign(payment.nextAction.url);
    return;
  }
  statusLine.textContent = payment.status;
}

document.getElementById("checkout").addEventListener("submit", (event) => {
  event.preventDefault();
  pay(document.getElementById("card").value).catch((error) => {
    statusLine.textContent = `error: ${error.message}`;
  });
});
