// A run as a Playwright test (service.exportTest("playwright")):
// mockOrderpay answers the page's requests with a service started with
// the run's options, and each request is the page's own fetch, checked as
// the page showed it. The plan and its checks are test_plan.js's.
// Internal: the package does not export this file.
import { clockNote, indent, js, jsSteps } from "./test_plan.js";

/** Where the page runs its fetches when no `page` is given: a blank page the test answers itself. */
export const BLANK_PAGE = "http://orderpay.test/";

/**
 * The test's text. `options.page`: the URL the page opens (your app's,
 * relative to the config's baseURL); by default a blank page of its own.
 */
export function playwrightTest(plan, options) {
  const name = options.name ?? "an orderpay run, copied as a test";
  const own = options.page === undefined;
  const page = own ? BLANK_PAGE : options.page;
  const body = jsSteps(plan, { send: (path, init) => `send(page, ${path}, ${init})`, redirects: "opaqueredirect" });
  const blank = own ? `\n  await page.route(${js(page)}, (route) => route.fulfill({ contentType: "text/html", body: "<!doctype html><title>orderpay</title>" }));` : "";
  return `// Copied from an orderpay run (service.exportTest("playwright")): the same seed,
// options and calls give the same answers.
// ${clockNote(plan)}
import { expect, test } from "@playwright/test";
import { mockOrderpay } from "orderpay/playwright";

/** Sends one request with the page's fetch; resolves with what the page saw. */
async function send(page, path, init) {
  const seen = await page.evaluate(async ([path, { timeoutMs, ...init }]) => {
    const signal = timeoutMs === undefined ? undefined : AbortSignal.timeout(timeoutMs);
    const response = await fetch(path, { redirect: "manual", ...init, signal });
    return { status: response.status, type: response.type, headers: Object.fromEntries(response.headers), text: await response.text() };
  }, [path, init]);
  return { ...seen, body: seen.text.startsWith("{") ? JSON.parse(seen.text) : null };
}

test(${js(name)}, async ({ page }) => {
  const { service } = await mockOrderpay(page, { service: ${js(plan.options)} });${blank}
  await page.goto(${js(page)});
  let reply;
${indent(body, 2)}
});
`;
}
