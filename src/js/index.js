// The package's default entry (`orderpay`): the WebAssembly module is
// loaded by the time this is imported, so `new Service()` works at once,
// with no init call. `await init()` still works (it resolves at once), for
// code written against the slim entry or an older version.
import "./inline.js";

export * from "./orderpay.js";
export { default } from "./orderpay.js";
