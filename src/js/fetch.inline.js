// orderpay/fetch: createFetch and installFetch, with the WebAssembly
// module loaded on import, so a createFetch has its service at once.
import "./inline.js";

export * from "./fetch.js";
