// Whether the WebAssembly module is loaded, shared by the Service and the
// adapters. In Node, node.js loads it synchronously on import and says so
// here; in a browser, `load()` fetches it once, and does nothing more when
// the page has already awaited `init()` itself.
import initBinding from "./binding.js";

let done = false;
let loading = null;

/** True once the module is loaded: a Service can then be made at once. */
export function loaded() {
  return done;
}

/** Called once the module is loaded, by whoever loaded it. */
export function markLoaded() {
  done = true;
  loading ??= Promise.resolve();
}

/** Loads the module once; every caller gets the same promise. */
export function load() {
  loading ??= initBinding().then(() => {
    done = true;
  });
  return loading;
}
