// createFetch, two builds of the package side by side in one run: the
// same client code (create an order, pay it, read it back, each answer
// read with json()) in Node, then in headless Chromium, alternated, best
// of five rounds each. Prints requests per second and the ratio B / A.
// Usage: node tests/bench/fetch-compare.mjs <folder with pkg/ A> <B> [clients]
// where each folder holds a built pkg/ (source .ci/lib.sh; build_package).
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { launchChromium } from "../chromium.mjs";

const [a, b, clientsArg = "3000"] = process.argv.slice(2);
if (!a || !b) {
  console.error("usage: node tests/bench/fetch-compare.mjs <folder with pkg/ A> <folder with pkg/ B> [clients]");
  process.exit(2);
}
const clients = Number(clientsArg);
const dirs = [resolve(a), resolve(b)];

/** The rounds, given each build's Service and createFetch; no imports, as it also runs in the page. */
async function race({ builds, clients }) {
  const json = { "content-type": "application/json" };
  async function workload(api) {
    const start = performance.now();
    for (let n = 0; n < clients; n++) {
      const order = { userId: `u${n % 50}`, price: (n % 500) + 1.5, description: "peer" };
      const created = await (await api("http://localhost/api/order/create", { method: "POST", headers: json, body: JSON.stringify(order) })).json();
      const id = created.data.orderId;
      const pay = { orderId: id, amount: 1.5, paymentMethod: "CARD" };
      await (await api("http://localhost/api/payment/pay", { method: "POST", headers: json, body: JSON.stringify(pay) })).json();
      await (await api(`http://localhost/api/order/${id}`)).json();
    }
    return (clients * 3) / ((performance.now() - start) / 1000);
  }
  const best = builds.map(() => 0);
  for (let round = 0; round < 5; round++) {
    for (let i = 0; i < builds.length; i++) {
      const [Service, createFetch] = builds[i];
      const api = createFetch({ service: new Service({ seed: 1, failureRate: 0 }), warn: false, baseUrl: "http://localhost" });
      best[i] = Math.max(best[i], await workload(api));
    }
  }
  return best.map(Math.round);
}

function print(where, best) {
  for (let i = 0; i < dirs.length; i++) console.log(JSON.stringify({ where, build: dirs[i], clients, requestsPerSecond: best[i] }));
  console.log(`${where}: B is ${(best[1] / best[0]).toFixed(2)}x A`);
}

const inNode = [];
for (const dir of dirs) {
  const { Service } = await import(pathToFileURL(`${dir}/pkg/node.js`).href);
  const { createFetch } = await import(pathToFileURL(`${dir}/pkg/fetch.js`).href);
  inNode.push([Service, createFetch]);
}
print("Node", await race({ builds: inNode, clients }));

// Each build's pkg/ served from 127.0.0.1 at /0/ and /1/.
const server = createServer(async (req, res) => {
  try {
    const path = decodeURIComponent(new URL(req.url, "http://x").pathname);
    const [, which, ...rest] = path.split("/");
    const body = path === "/" ? "<!doctype html><title>fetch-compare</title>" : await readFile(`${dirs[Number(which)]}/pkg/${rest.join("/")}`);
    const type = path.endsWith(".wasm") ? "application/wasm" : path.endsWith(".js") ? "text/javascript" : "text/html";
    res.writeHead(200, { "content-type": type });
    res.end(body);
  } catch {
    res.writeHead(404);
    res.end();
  }
}).listen(0, "127.0.0.1");
await new Promise((done) => server.once("listening", done));
const base = `http://127.0.0.1:${server.address().port}`;
const browser = await launchChromium();
try {
  const page = await browser.newPage();
  await page.goto(`${base}/`);
  const best = await page.evaluate(async ({ base, race, clients }) => {
    const builds = [];
    for (const which of [0, 1]) {
      const m = await import(`${base}/${which}/orderpay.js`);
      await m.default();
      const { createFetch } = await import(`${base}/${which}/fetch.js`);
      builds.push([m.Service, createFetch]);
    }
    const run = new Function(`return (${race})`)();
    return run({ builds, clients });
  }, { base, race: race.toString(), clients });
  print("Chromium", best);
} finally {
  await browser.close();
  server.close();
}
