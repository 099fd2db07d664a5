// UTF-8 for wasm-bindgen's glue where the host has no TextEncoder or
// TextDecoder: Jest's jsdom environment removes them. The build makes the
// glue import these instead of the globals; when the host has its own,
// they are the host's.

/** Encodes a string as UTF-8; a lone surrogate becomes U+FFFD, as TextEncoder does. */
class Utf8Encoder {
  get encoding() {
    return "utf-8";
  }

  encode(text = "") {
    const input = String(text);
    const out = new Uint8Array(input.length * 3);
    let at = 0;
    for (let i = 0; i < input.length; i++) {
      let code = input.charCodeAt(i);
      if (code >= 0xd800 && code <= 0xdbff) {
        const next = input.charCodeAt(i + 1);
        if (next >= 0xdc00 && next <= 0xdfff) {
          code = 0x10000 + ((code - 0xd800) << 10) + (next - 0xdc00);
          i++;
        } else code = 0xfffd;
      } else if (code >= 0xdc00 && code <= 0xdfff) code = 0xfffd;
      if (code < 0x80) out[at++] = code;
      else if (code < 0x800) {
        out[at++] = 0xc0 | (code >> 6);
        out[at++] = 0x80 | (code & 0x3f);
      } else if (code < 0x10000) {
        out[at++] = 0xe0 | (code >> 12);
        out[at++] = 0x80 | ((code >> 6) & 0x3f);
        out[at++] = 0x80 | (code & 0x3f);
      } else {
        out[at++] = 0xf0 | (code >> 18);
        out[at++] = 0x80 | ((code >> 12) & 0x3f);
        out[at++] = 0x80 | ((code >> 6) & 0x3f);
        out[at++] = 0x80 | (code & 0x3f);
      }
    }
    return out.slice(0, at);
  }
}

/**
 * Decodes UTF-8. With `fatal`, malformed input throws a TypeError, as
 * TextDecoder does; without it, each malformed sequence becomes U+FFFD.
 */
class Utf8Decoder {
  constructor(label = "utf-8", options = {}) {
    if (!/^\s*utf-?8\s*$/i.test(String(label))) throw new RangeError(`only utf-8 is supported, not ${label}`);
    this.fatal = Boolean(options.fatal);
    this.ignoreBOM = Boolean(options.ignoreBOM);
  }

  get encoding() {
    return "utf-8";
  }

  decode(input) {
    if (input === undefined) return "";
    const bytes = ArrayBuffer.isView(input)
      ? new Uint8Array(input.buffer, input.byteOffset, input.byteLength)
      : new Uint8Array(input);
    let i = 0;
    if (!this.ignoreBOM && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) i = 3;
    const units = [];
    let text = "";
    const bad = () => {
      if (this.fatal) throw new TypeError("The encoded data was not valid for encoding utf-8");
      units.push(0xfffd);
    };
    // The Encoding Standard's UTF-8 decoder: the bounds of the next byte
    // rule out overlong forms, surrogates and code points past U+10FFFF; a
    // byte out of bounds ends the sequence and is read again on its own.
    let needed = 0;
    let seen = 0;
    let code = 0;
    let lower = 0x80;
    let upper = 0xbf;
    for (; i < bytes.length; i++) {
      const byte = bytes[i];
      if (needed === 0) {
        if (byte <= 0x7f) units.push(byte);
        else if (byte >= 0xc2 && byte <= 0xdf) [needed, code] = [1, byte & 0x1f];
        else if (byte >= 0xe0 && byte <= 0xef) {
          if (byte === 0xe0) lower = 0xa0;
          if (byte === 0xed) upper = 0x9f;
          [needed, code] = [2, byte & 0x0f];
        } else if (byte >= 0xf0 && byte <= 0xf4) {
          if (byte === 0xf0) lower = 0x90;
          if (byte === 0xf4) upper = 0x8f;
          [needed, code] = [3, byte & 0x07];
        } else bad();
      } else if (byte < lower || byte > upper) {
        [needed, seen, code, lower, upper] = [0, 0, 0, 0x80, 0xbf];
        bad();
        i--;
      } else {
        [lower, upper] = [0x80, 0xbf];
        code = (code << 6) | (byte & 0x3f);
        if (++seen === needed) {
          if (code >= 0x10000) {
            code -= 0x10000;
            units.push(0xd800 + (code >> 10), 0xdc00 + (code & 0x3ff));
          } else units.push(code);
          [needed, seen, code] = [0, 0, 0];
        }
      }
      if (units.length >= 8192) text += String.fromCharCode(...units.splice(0));
    }
    if (needed) bad();
    return text + String.fromCharCode(...units);
  }
}

const TextEncoderOrFallback = typeof globalThis.TextEncoder === "function" ? globalThis.TextEncoder : Utf8Encoder;
const TextDecoderOrFallback = typeof globalThis.TextDecoder === "function" ? globalThis.TextDecoder : Utf8Decoder;

export { TextEncoderOrFallback as TextEncoder, TextDecoderOrFallback as TextDecoder, Utf8Encoder, Utf8Decoder };
