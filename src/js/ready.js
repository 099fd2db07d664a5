// Whether the WebAssembly module is loaded, shared by the adapters. In Node,
// node.js loads it synchronously on import and says so here; in a browser,
// `load()` fetches it once, and does nothing more when the page has already
// awaited `init()` itself.
import init from "./orderpay.js";

let done = false;
let loading = null;

/** True once the module is loaded: a Service can then be made at once. */
export function loaded() {
  return done;
}

/** Called by node.js after its synchronous load. */
export function markLoaded() {
  done = true;
  loading = Promise.resolve();
}

/** Loads the module once; every caller gets the same promise. */
export function load() {
  loading ??= init().then(() => {
    done = true;
  });
  return loading;
}
