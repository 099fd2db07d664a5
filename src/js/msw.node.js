// orderpay/msw in Node: the WebAssembly module is loaded on import, so the
// handlers have their service at once.
import "./node.js";

export * from "./msw.js";
