// Debian's Chromium driven by playwright-core, and the playground served
// on a free loopback port: the shared set-up of the end-to-end tests.
import { launchChromium } from "../chromium.mjs";
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

import { build } from "esbuild";

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

const HERE = dirname(fileURLToPath(import.meta.url));

/**
 * A page's script bundled for the browser as one ES module (esbuild), its
 * bare imports (msw and the like) from the tests' install; `alias` maps
 * package names to files. Returns the bundle's text.
 */
export async function bundleForPage(contents, alias = {}) {
  const out = await build({
    stdin: { contents, resolveDir: HERE, loader: "js" },
    alias,
    bundle: true,
    format: "esm",
    platform: "browser",
    write: false,
    nodePaths: [join(HERE, "..", "node_modules")],
    logLevel: "silent",
  });
  return out.outputFiles[0].text;
}
