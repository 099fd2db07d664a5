// CORS for the Playwright adapter's routes, in both its forms (the module
// in the test's process, and `{ server }`): the headers a cross-origin page
// needs to read an answer, and the answer to the browser's preflight.

/** Headers a cross-origin page needs to read the answer (the gateway on another origin). */
export function corsHeaders(requestHeaders, url) {
  const origin = requestHeaders.origin;
  if (!origin || origin === new URL(url).origin) return {};
  return {
    "access-control-allow-origin": origin,
    "access-control-allow-credentials": "true",
    "access-control-expose-headers": "*",
    vary: "Origin",
  };
}

/**
 * A CORS preflight is the browser's, not the app's: says yes to it with a
 * 204 and answers true; false, and nothing sent, for any other request.
 */
export async function answerPreflight(route, headers, cors) {
  const method = headers["access-control-request-method"];
  if (route.request().method() !== "OPTIONS" || !method || !cors["access-control-allow-origin"]) return false;
  await route.fulfill({
    status: 204,
    headers: {
      ...cors,
      "access-control-allow-methods": method,
      "access-control-allow-headers": headers["access-control-request-headers"] ?? "*",
      "access-control-max-age": "600",
    },
  });
  return true;
}
