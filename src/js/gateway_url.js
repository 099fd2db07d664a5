// Which URLs are the gateway's: `{base_url}/api` and everything under it,
// `api` in any letter case. One rule for the adapters (adapter.js) and the
// server (server/gateway.js); the Service Worker, a script with no
// imports, keeps a copy (worker.js) that tests/node/gateway-url.test.mjs
// holds to this one. Internal: the package does not export this file.
import { kind } from "./request_parts.js";

/** The origin of the page or worker this code runs in; none in Node. */
function hostOrigin() {
  const origin = globalThis.location?.origin;
  return typeof origin === "string" && origin !== "null" ? origin : null;
}

/** What a relative URL is resolved against: the document, the worker, or http://localhost/ in Node. */
export function relativeBase() {
  return globalThis.document?.baseURI ?? globalThis.location?.href ?? "http://localhost/";
}

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Where the gateway lives. `baseUrl` is the spec's {base_url}: a path
 * ("/", "/shop"), taken on the page's own origin in a browser and on any
 * origin in Node (on any origin everywhere with `anyOrigin`, for handlers
 * that serve tests in both), or an absolute http(s) URL. The service answers every URL
 * under `{base_url}/api` (the `api` segment in any letter case, so that
 * `/API/ORDER/CREATE` gets its 404 with a hint); everything else is not
 * its business.
 */
export function gateway(baseUrl = "/", { anyOrigin = false } = {}) {
  let text;
  if (baseUrl instanceof URL) text = baseUrl.href;
  else if (typeof baseUrl === "string") text = baseUrl;
  else {
    throw new TypeError(
      `baseUrl: expected a path such as "/shop" or a URL such as "https://api.example.test", got ${kind(baseUrl)}`,
    );
  }
  let origin;
  let path;
  const absolute = /^[a-z][a-z\d+.-]*:/i.test(text);
  if (absolute) {
    let url;
    try {
      url = new URL(text);
    } catch {
      throw new TypeError(`baseUrl: not a valid URL: ${JSON.stringify(text)}`);
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      throw new TypeError(`baseUrl: expected an http or https URL, got ${JSON.stringify(text)}`);
    }
    if (url.search || url.hash) {
      throw new TypeError(`baseUrl: a query or fragment has no place in a base URL: ${JSON.stringify(text)}`);
    }
    origin = url.origin;
    path = url.pathname;
  } else if (text.startsWith("/") && !text.startsWith("//") && !/[?#]/.test(text)) {
    origin = anyOrigin ? null : hostOrigin();
    path = new URL(text, "http://localhost").pathname;
  } else {
    throw new TypeError(
      `baseUrl: expected a path starting with "/" or an absolute http(s) URL, got ${JSON.stringify(text)}`,
    );
  }
  path = path.replace(/\/+$/, "");
  const build = (group) =>
    new RegExp(
      `^${group}${origin ? escape(origin) : "https?://[^/?#]+"})${escape(path)}` +
        `${group}/[aA][pP][iI](?:/[^?#]*)?)${group}\\?[^#]*)?(?:#.*)?$`,
    );
  const capture = build("(");
  return {
    /** Matches the gateway's URLs, with no capture groups (for MSW). */
    pattern: build("(?:"),
    /** The base URL as given, normalised: "/" by default. */
    base: absolute ? origin + path : path || "/",
    /** Where the gateway is, for messages. */
    where: origin ? `${origin}${path}/api` : `${path}/api on any origin`,
    /** The path and query the service sees, or null when the URL is not the gateway's. */
    pathOf(url) {
      const m = capture.exec(url);
      return m ? m[2] + (m[3] ?? "") : null;
    },
  };
}

