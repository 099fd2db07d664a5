// Base64 to bytes, once, on import: with the host's native decoder where
// there is one (Uint8Array.fromBase64, Node's Buffer: under a millisecond
// for the module, against about 20 ms in JS), else in plain JS, which runs
// everywhere the default entry does.

const VALUES = new Uint8Array(128).fill(255);
for (let i = 0; i < 64; i++) {
  VALUES["ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".charCodeAt(i)] = i;
}

/** The bytes of standard base64 text (padding optional). */
export function decodeBase64(text) {
  if (typeof Uint8Array.fromBase64 === "function") return Uint8Array.fromBase64(text);
  const buffer = globalThis.Buffer;
  if (typeof buffer?.from === "function") {
    const bytes = buffer.from(text, "base64");
    return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length);
  }
  return decodeInJs(text);
}

/** The same in plain JS; throws on a character outside the alphabet. */
export function decodeInJs(text) {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 61) end--;
  const out = new Uint8Array(Math.floor((end * 3) / 4));
  let at = 0;
  let buffer = 0;
  let bits = 0;
  for (let i = 0; i < end; i++) {
    const c = text.charCodeAt(i);
    const value = c < 128 ? VALUES[c] : 255;
    if (value === 255) throw new TypeError(`base64: unexpected character at ${i}`);
    buffer = ((buffer << 6) | value) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[at++] = (buffer >> bits) & 0xff;
    }
  }
  return out.subarray(0, at);
}
