// Service.handle against the hand-written JS mock of the same routes
// (tests/bench/mock.mjs), on the same workload, in Node and in headless
// Chromium, in one run so both sides see the same machine load. Prints
// requests per second, best of three rounds, and the ratio.
// Run after building the package: node tests/bench/handle.mjs [clients]
import { launchChromium } from "../chromium.mjs";

import { serve } from "../../.ci/server.mjs";
import { Service } from "../../pkg/node.js";
import { createMock } from "./mock.mjs";

const clients = Number(process.argv[2] ?? 20000);

/**
 * The typical flow, as a page would drive it: create an order, read it,
 * pay until the third party accepts, mark it paid. Bodies are JSON text,
 * or objects when `objects` is set. No imports: it also runs in the page.
 */
function race({ makeService, makeMock, clients, objects }) {
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

function print(where, objects, r) {
  const bodies = objects ? "object bodies" : "JSON text bodies";
  console.log(JSON.stringify({ where, bodies, clients, serviceRequestsPerSecond: r.service, mockRequestsPerSecond: r.mock }));
  console.log(`${where}, ${bodies}: Service.handle is ${r.ratio}x the hand-written mock`);
}

for (const objects of [false, true]) {
  const r = race({ makeService: () => new Service({ seed: 1 }), makeMock: () => createMock(), clients, objects });
  print("Node", objects, r);
}

const server = await serve(0);
const browser = await launchChromium();
try {
  const page = await browser.newPage();
  const base = `http://127.0.0.1:${server.address().port}`;
  await page.goto(`${base}/pkg/package.json`);
  for (const objects of [false, true]) {
    const r = await page.evaluate(
      async ({ base, mock, race, clients, objects }) => {
        const { default: init, Service } = await import(`${base}/pkg/orderpay.js`);
        await init();
        const createMock = new Function(`return (${mock})`)();
        const run = new Function(`return (${race})`)();
        return run({ makeService: () => new Service({ seed: 1 }), makeMock: () => createMock(), clients, objects });
      },
      { base, mock: createMock.toString(), race: race.toString(), clients, objects },
    );
    print("Chromium", objects, r);
  }
} finally {
  await browser.close();
  server.close();
}
