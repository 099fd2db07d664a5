// CORS for the Playwright adapter's routes, in both its forms (the module
// in the test's process, and `{ server }`): the headers a cross-origin page
// needs to read an answer, and the answer to the browser's preflight.

/** Headers a cross-origin page needs to read the answer (the gateway on another origin). */
function corsHeaders(requestHeaders, url) {
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
async function answerPreflight(route, headers, cors) {
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

/**
 * What both forms of the adapter read of a routed request first: the
 * request, its URL, its headers and the CORS headers its answer needs;
 * null when it was the browser's preflight, answered here.
 */
export async function routed(route) {
  const request = route.request();
  const url = request.url();
  const headers = await request.allHeaders();
  const cors = corsHeaders(headers, url);
  if (await answerPreflight(route, headers, cors)) return null;
  return { request, url, headers, cors };
}
