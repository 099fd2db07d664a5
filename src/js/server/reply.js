// How the server's own answers look: the service's {code, msg, data}
// envelope, so that a client reads the admin API and the gateway alike.
import { STATUS_TEXT } from "../status_text.js";

/** Sends a JSON value with its status. */
export function sendJson(res, status, value, headers = {}) {
  const text = JSON.stringify(value);
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/** code 0, msg success, and the data. */
export function sendData(res, data, headers = {}) {
  sendJson(res, 200, { code: 0, msg: "success", data }, headers);
}

/** A refusal: code is the HTTP status, msg names the field and the problem. */
export function sendError(res, status, msg, headers = {}) {
  sendJson(res, status, { code: status, msg, data: null }, headers);
}

/** Sends text of a given type (NDJSON, a snapshot, a document). */
export function sendText(res, type, text, headers = {}) {
  res.writeHead(200, { "content-type": type, "content-length": Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** An error answer written straight to a socket whose request Node could not parse. */
export function rawError(status, msg) {
  const text = JSON.stringify({ code: status, msg, data: null });
  return (
    `HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? "Error"}\r\n` +
    `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`
  );
}
