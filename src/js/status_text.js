// The reason phrases of the statuses orderpay answers with: the core's
// (its OpenAPI document, the challenge page's 303 and 409 among them), a
// scenario's `http` faults, and the server's own refusals. A Response made
// by hand (adapter.js), a status line written on a socket
// (server/reply.js) and the playground's HAR export (www/har.js) read them
// here; the Service Worker gets them from the page.
// tests/node/copies.test.mjs holds the table to those statuses. Internal:
// the package does not export this file.

export const STATUS_TEXT = {
  200: "OK",
  204: "No Content",
  303: "See Other",
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  408: "Request Timeout",
  409: "Conflict",
  413: "Content Too Large",
  414: "URI Too Long",
  415: "Unsupported Media Type",
  429: "Too Many Requests",
  431: "Request Header Fields Too Large",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
  507: "Insufficient Storage",
};

/** The reason phrase of `status`, or "" for one orderpay never gives (a processor_error's 5xx may be any). */
export function statusText(status) {
  return STATUS_TEXT[status] ?? "";
}
