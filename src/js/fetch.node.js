// orderpay/fetch in Node: the WebAssembly module is loaded on import, so a
// createFetch has its service at once.
import "./node.js";

export * from "./fetch.js";
