// Service.handle against the hand-written JS mock of the same routes
// (tests/bench/mock.mjs), on the same workload, in Node and in headless
// Chromium, in one run so both sides see the same machine load. Prints
// requests per second, best of three rounds, and the ratio.
// Run after building the package: node tests/bench/handle.mjs [clients]
import { launchChromium } from "../chromium.mjs";

import { serve } from "../../.ci/server.mjs";
import { Service } from "../../pkg/node.js";
import { createMock } from "./mock.mjs";
import { race } from "./race.mjs";

const clients = Number(process.argv[2] ?? 20000);

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
