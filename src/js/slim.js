// orderpay/slim: the same API as `orderpay`, with the WebAssembly module in
// its own file (orderpay_bg.wasm) instead of inlined: about a quarter fewer
// bytes to download, paid for with one `await init()` before the first
// Service (init fetches the file beside this module, or what you pass it).
export * from "./orderpay.js";
export { default } from "./orderpay.js";
