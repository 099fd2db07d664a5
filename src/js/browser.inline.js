// orderpay/browser: startWorker, with the WebAssembly module loaded on
// import, so the page's service is there before the worker asks for it.
import "./inline.js";

export * from "./browser.js";
