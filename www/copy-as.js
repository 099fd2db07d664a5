// A request as a command to run elsewhere: curl for a shell, fetch for a
// browser's or Node's console. Both point at a server that runs this same
// service over HTTP (the package's server mode, `npx orderpay serve`, on
// port 4010 by default), so the answer there is the one seen here.

/** The server mode on this machine, reached with the page's own scheme. */
export const DEFAULT_BASE = `${globalThis.location?.protocol === "https:" ? "https:" : "http:"}//127.0.0.1:4010`;

/** A base URL without a trailing slash, or null when `text` is not an http(s) URL. */
export function baseUrl(text) {
  try {
    const url = new URL(String(text).trim());
    if (url.protocol !== "http:" && url.protocol !== "https:") return null;
    return url.href.replace(/\/+$/, "");
  } catch {
    return null;
  }
}

/** Quoted for a POSIX shell: inside single quotes, nothing is special but the quote itself. */
const sh = (text) => `'${String(text).replace(/'/g, "'\\''")}'`;

/** `req`: {method, path, headers (plain object), body (text or null)}. */
export function asCurl(req, base) {
  const parts = ["curl", "-sS", "-i", "-X", req.method, sh(base + req.path)];
  for (const [name, value] of Object.entries(req.headers ?? {})) parts.push("-H", sh(`${name}: ${value}`));
  if (req.body !== null && req.body !== undefined && req.body !== "") parts.push("--data-raw", sh(req.body));
  return parts.join(" ");
}

export function asFetch(req, base) {
  const init = { method: req.method, headers: req.headers ?? {} };
  if (req.body !== null && req.body !== undefined && req.body !== "") init.body = req.body;
  return `await fetch(${JSON.stringify(base + req.path)}, ${JSON.stringify(init, null, 2)}).then((r) => r.json());`;
}
