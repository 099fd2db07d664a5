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
    while (i < bytes.length) {
      const b = bytes[i];
      let need = 0;
      let code = 0;
      let min = 0;
      if (b < 0x80) {
        units.push(b);
        i++;
      } else {
        if (b >= 0xc2 && b <= 0xdf) [need, code, min] = [1, b & 0x1f, 0x80];
        else if (b >= 0xe0 && b <= 0xef) [need, code, min] = [2, b & 0x0f, 0x800];
        else if (b >= 0xf0 && b <= 0xf4) [need, code, min] = [3, b & 0x07, 0x10000];
        else {
          bad();
          i++;
          continue;
        }
        let j = 1;
        for (; j <= need; j++) {
          const c = bytes[i + j];
          if (c === undefined || (c & 0xc0) !== 0x80) break;
          code = (code << 6) | (c & 0x3f);
        }
        if (j <= need || code < min || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) {
          bad();
          i += Math.max(1, j);
          continue;
        }
        i += need + 1;
        if (code >= 0x10000) {
          code -= 0x10000;
          units.push(0xd800 + (code >> 10), 0xdc00 + (code & 0x3ff));
        } else units.push(code);
      }
      if (units.length >= 8192) text += String.fromCharCode(...units.splice(0));
    }
    return text + String.fromCharCode(...units);
  }
}

const TextEncoderOrFallback = typeof globalThis.TextEncoder === "function" ? globalThis.TextEncoder : Utf8Encoder;
const TextDecoderOrFallback = typeof globalThis.TextDecoder === "function" ? globalThis.TextDecoder : Utf8Decoder;

export { TextEncoderOrFallback as TextEncoder, TextDecoderOrFallback as TextDecoder, Utf8Encoder, Utf8Decoder };
