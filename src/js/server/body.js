// Request bodies, read as they stream in and never past their limit: once a
// body is over it, reading stops and the caller answers at once (413 on
// the gateway), closing the connection rather than draining the rest.

/** What readBody gives for a body over the limit. */
export const TOO_LARGE = Symbol("body too large");

/**
 * The body as one Buffer (null when there is none), or TOO_LARGE as soon
 * as the declared length or the bytes received pass `limit`.
 */
export function readBody(req, limit) {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limit) return Promise.resolve(TOO_LARGE);
  if (declared === 0) return Promise.resolve(null);
  return new Promise((resolve, reject) => {
    // One request's body mostly comes in one chunk: kept as it is, not copied.
    let first = null;
    let rest = null;
    let size = 0;
    const onData = (chunk) => {
      size += chunk.length;
      if (size > limit) {
        req.pause();
        req.off("data", onData);
        req.off("end", onEnd);
        resolve(TOO_LARGE);
      } else if (first === null) first = chunk;
      else (rest ??= [first]).push(chunk);
    };
    // At the end the request is done with: its listeners go with it.
    const onEnd = () => resolve(size === 0 ? null : rest === null ? first : Buffer.concat(rest, size));
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", reject);
  });
}

/**
 * The size a request's content-length declares, or undefined without one
 * (a chunked body): all a server knows of a body it stopped reading.
 */
export function declaredLength(req) {
  const declared = Number(req.headers["content-length"]);
  return Number.isSafeInteger(declared) ? declared : undefined;
}

const strict = new TextDecoder("utf-8", { fatal: true });

/** The body as text, or null when it is not UTF-8. */
export function utf8(buffer) {
  try {
    return strict.decode(buffer);
  } catch {
    return null;
  }
}
