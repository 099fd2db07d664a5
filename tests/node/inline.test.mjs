// The default entry's own pieces, against the host's: the plain-JS base64
// decoder (for hosts with neither Buffer nor Uint8Array.fromBase64) and the
// UTF-8 encoder and decoder the glue falls back to under Jest's jsdom.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import test from "node:test";

const pkg = new URL("../../pkg/", import.meta.url);
const { decodeBase64, decodeInJs } = await import(new URL("base64.js", pkg).href);
const { Utf8Decoder, Utf8Encoder } = await import(new URL("utf8_fallback.js", pkg).href);
const { default: inlined } = await import(new URL("wasm-inline.js", pkg).href);

test("the inlined base64 decodes to the .wasm, natively and in plain JS", () => {
  const wasm = readFileSync(new URL("orderpay_bg.wasm", pkg));
  assert.deepEqual(Buffer.from(decodeBase64(inlined)), wasm);
  assert.deepEqual(Buffer.from(decodeInJs(inlined)), wasm);
});

test("plain-JS base64 agrees with Buffer on every length and byte, and refuses what is not base64", () => {
  for (let length = 0; length < 64; length++) {
    const bytes = Buffer.from(Array.from({ length }, (_, i) => (i * 97 + length * 31) & 0xff));
    const text = bytes.toString("base64");
    assert.deepEqual(Buffer.from(decodeInJs(text)), bytes, `length ${length}`);
    assert.deepEqual(Buffer.from(decodeInJs(text.replace(/=+$/, ""))), bytes, `length ${length}, no padding`);
  }
  assert.throws(() => decodeInJs("QU*D"), /unexpected character at 2/);
});

test("the UTF-8 fallbacks encode and decode as TextEncoder and TextDecoder do", () => {
  const samples = ["", "plain", "café", "ORD-€", "𝄞 and 😀", "lone \ud800 high", "lone \udc00 low", "\u0000\u007f\u0080\u07ff\u0800\uffff"];
  const native = new TextEncoder();
  for (const text of samples) {
    const bytes = new Utf8Encoder().encode(text);
    assert.deepEqual(bytes, native.encode(text), JSON.stringify(text));
    assert.equal(new Utf8Decoder("utf-8", { fatal: true }).decode(native.encode(text)), new TextDecoder().decode(native.encode(text)));
  }
  const long = "ü".repeat(20000);
  assert.equal(new Utf8Decoder().decode(native.encode(long)), long);
  assert.equal(new Utf8Decoder().decode(), "");
});

test("the UTF-8 decoder is fatal when asked, and replaces malformed bytes otherwise, as TextDecoder does", () => {
  const bad = [[0xff], [0xc3], [0xe2, 0x82], [0xed, 0xa0, 0x80], [0xc0, 0xaf], [0xe0, 0x80, 0x80], [0xf0, 0x80, 0x80, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xf0, 0x9f, 0x98], [0xf0, 0x9f, 0x41], [0x61, 0x80, 0x62]];
  for (const bytes of bad) {
    const input = new Uint8Array(bytes);
    assert.throws(() => new Utf8Decoder("utf-8", { fatal: true }).decode(input), TypeError, String(bytes));
    assert.equal(new Utf8Decoder().decode(input), new TextDecoder().decode(input), String(bytes));
  }
  const bom = new Uint8Array([0xef, 0xbb, 0xbf, 0x61]);
  assert.equal(new Utf8Decoder("utf-8", { ignoreBOM: true }).decode(bom), new TextDecoder("utf-8", { ignoreBOM: true }).decode(bom));
  assert.equal(new Utf8Decoder().decode(bom), new TextDecoder().decode(bom));
});
