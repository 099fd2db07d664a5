// Debian's Chromium driven by playwright-core, and the playground served
// on a free loopback port: the shared set-up of the end-to-end tests.
import { launchChromium } from "../chromium.mjs";
import { mkdirSync } from "node:fs";
import { join } from "node:path";

import { serve } from "../../.ci/server.mjs";

export const artifacts = new URL("../artifacts/", import.meta.url).pathname;
mkdirSync(artifacts, { recursive: true });

export async function start() {
  const server = await serve(0);
  const browser = await launchChromium(["--disable-quic"]);
  const base = `http://127.0.0.1:${server.address().port}/`;
  return {
    base,
    browser,
    /**
     * A fresh page (its own storage) that records every request off this
     * server, the page's uncaught errors, and what its console said as an
     * error or a warning, in any of its frames (`consoleMessages`: "error: …").
     */
    async page(path = "") {
      const context = await browser.newContext();
      const page = await context.newPage();
      const errors = [];
      const external = [];
      const consoleMessages = [];
      page.on("pageerror", (e) => errors.push(String(e)));
      page.on("console", (m) => { if (m.type() === "error" || m.type() === "warning") consoleMessages.push(`${m.type()}: ${m.text()}`); });
      page.on("request", (r) => { if (!r.url().startsWith(base)) external.push(r.url()); });
      await page.goto(base + path);
      return { page, context, errors, external, consoleMessages };
    },
    screenshot: (page, name) => page.screenshot({ path: join(artifacts, name), fullPage: true }),
    async close() {
      await browser.close();
      server.close();
    },
  };
}
