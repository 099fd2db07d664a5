// One POST to the gateway, and what its client met, as plain data: an
// answer (status, the failure headers, the envelope's code), a rejection
// (a TypeError or not, its cause's code), an abort by the request's
// signal, a body that broke off or was no JSON. Self-contained, so that
// Playwright's page.evaluate can run it in a page as it is.
export async function observe({ path, body, abortMs, fetch: send = globalThis.fetch, base = "" }) {
  const started = performance.now();
  const init = {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
    signal: abortMs ? AbortSignal.timeout(abortMs) : undefined,
  };
  const failure = (outcome, error, extra) => ({
    outcome,
    ...extra,
    typeError: error instanceof TypeError,
    name: error?.name,
    message: String(error?.message),
    cause: error?.cause?.code ?? null,
    ms: performance.now() - started,
  });
  let response;
  try {
    response = await send(base + path, init);
  } catch (error) {
    const aborted = error?.name === "TimeoutError" || error?.name === "AbortError";
    return failure(aborted ? "aborted" : "rejected", error, {});
  }
  const header = (name) => response.headers.get(name);
  const head = {
    status: response.status,
    fault: header("x-orderpay-fault") ?? undefined,
    retryAfter: header("retry-after"),
    declineCode: header("x-orderpay-decline-code") ?? undefined,
    simulatedMs: Number(header("x-sim-duration-ms") ?? 0),
  };
  let text;
  try {
    text = await response.text();
  } catch (error) {
    return failure("body-error", error, head);
  }
  let envelope;
  try {
    envelope = JSON.parse(text);
  } catch (error) {
    return failure("bad-body", error, { ...head, length: text.length });
  }
  return { outcome: "answer", ...head, code: envelope.code, orderId: envelope.data?.orderId, ms: performance.now() - started };
}
