// A run as a Vitest test (service.exportTest("vitest")): createFetch over a
// service started with the run's options, each request sent through its
// fetch and checked as the page showed it. The plan and its checks are
// test_plan.js's. Internal: the package does not export this file.
import { clockNote, indent, js, jsSteps } from "./test_plan.js";

/** The test's text. `options.name`: the test's title. */
export function vitestTest(plan, options) {
  const name = options.name ?? "an orderpay run, copied as a test";
  const body = jsSteps(plan, { send: (path, init) => `send(${path}, ${init})`, redirects: "status" });
  return `// Copied from an orderpay run (service.exportTest("vitest")): the same seed,
// options and calls give the same answers.
// ${clockNote(plan)}
import { expect, test } from "vitest";
import { createFetch } from "orderpay/fetch";

test(${js(name)}, async () => {
  const api = createFetch({ service: ${js(plan.options)} });
  const service = api.service;
  /** Sends one request through fetch; resolves with what the page saw. */
  const send = async (path, { timeoutMs, ...init }) => {
    const signal = timeoutMs === undefined ? undefined : AbortSignal.timeout(timeoutMs);
    const response = await api(path, { redirect: "manual", ...init, signal });
    const text = await response.text();
    return { status: response.status, headers: Object.fromEntries(response.headers), body: text.startsWith("{") ? JSON.parse(text) : null };
  };
  let reply;
${indent(body, 2)}
  service.free();
});
`;
}
