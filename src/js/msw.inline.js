// orderpay/msw: the handlers, with the WebAssembly module loaded on
// import, so they have their service at once.
import "./inline.js";

export * from "./msw.js";
