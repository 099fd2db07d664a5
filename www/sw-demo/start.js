// The only orderpay code of the demo: start the Service Worker with this
// page's settings, wait until it answers, then load the app.
import { startWorker } from "orderpay/browser";

const params = new URLSearchParams(location.search);
window.orderpay = await startWorker({
  url: "/pkg/worker.js",
  scope: "/sw-demo/",
  service: {
    seed: Number(params.get("seed") ?? 42),
    failureRate: Number(params.get("failureRate") ?? 0),
  },
});
await import("./app.js");
