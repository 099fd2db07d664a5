// Random ids for the page: a trace id or a span id as a tracing client
// makes them, lower-case hex from the browser's cryptographic generator.

/** `bytes` random bytes as 2 × bytes lower-case hex digits. */
export function randomHex(bytes) {
  return [...crypto.getRandomValues(new Uint8Array(bytes))].map((b) => b.toString(16).padStart(2, "0")).join("");
}
