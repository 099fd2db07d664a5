// Whether the WebAssembly module is loaded, shared by the Service and the
// adapters. In Node, node.js loads it synchronously on import and says so
// here; in a browser, `load()` fetches it once, and does nothing more when
// the page has already awaited `init()` itself.
import initBinding from "./binding.js";

let done = false;
let loading = null;
let exports = null;

/** True once the module is loaded: a Service can then be made at once. */
export function loaded() {
  return done;
}

/** Called once the module is loaded, by whoever loaded it, with its exports. */
export function markLoaded(instanceExports) {
  done = true;
  exports = instanceExports ?? exports;
  loading ??= Promise.resolve();
}

/** The module's linear memory, once loaded: requests cross through it (crossing.js). */
export function linearMemory() {
  return exports.memory;
}

/** Loads the module once; every caller gets the same promise. */
export function load() {
  loading ??= initBinding().then((instanceExports) => {
    done = true;
    exports = instanceExports;
  });
  return loading;
}
