// The package's entry point in Node: it loads the WebAssembly module
// synchronously from the package's own folder, so that
// `import { Service } from "orderpay"` works at once, with no init call.
// `await init()` still works, for code shared with the browser.
import { readFileSync } from "node:fs";
import { initSync } from "./orderpay.js";

const exports = initSync({ module: readFileSync(new URL("./orderpay_bg.wasm", import.meta.url)) });

export * from "./orderpay.js";

export default async function init() {
  return exports;
}
