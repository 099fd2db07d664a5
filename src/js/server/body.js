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
    const chunks = [];
    let size = 0;
    const done = (value) => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
      resolve(value);
    };
    const onData = (chunk) => {
      size += chunk.length;
      if (size > limit) {
        req.pause();
        done(TOO_LARGE);
      } else chunks.push(chunk);
    };
    const onEnd = () => done(size === 0 ? null : Buffer.concat(chunks, size));
    const onError = (error) => {
      req.off("data", onData);
      req.off("end", onEnd);
      reject(error);
    };
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
  });
}

/**
 * What a client is told of a body over `limit`: the size its
 * content-length declared when it gave one, else only that reading
 * stopped past the limit (the rest was never read, so no size is known).
 */
export function tooLargeMessage(req, limit) {
  const declared = Number(req.headers["content-length"]);
  return Number.isFinite(declared) && declared > limit
    ? `body: ${declared} bytes (its content-length) is over the limit of ${limit} bytes`
    : `body: over the limit of ${limit} bytes; reading stopped there`;
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
