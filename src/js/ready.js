// Whether the WebAssembly module is loaded, shared by the Service and the
// adapters. In Node, node.js loads it synchronously on import and says so
// here; in a browser, `load()` fetches it once, and does nothing more when
// the page has already awaited `init()` itself.
import initBinding from "./binding.js";

let done = false;
let loading = null;
/** The module instance's exports, for its memory. */
let moduleExports = null;

/** True once the module is loaded: a Service can then be made at once. */
export function loaded() {
  return done;
}

/** Called once the module is loaded, by whoever loaded it, with its exports. */
export function markLoaded(given) {
  done = true;
  moduleExports = given ?? moduleExports;
  loading ??= Promise.resolve();
}

/** The module's linear memory, once loaded: requests cross through it (crossing.js). */
export function linearMemory() {
  return moduleExports.memory;
}

/** Loads the module once; every caller gets the same promise. */
export function load() {
  loading ??= initBinding().then((given) => {
    done = true;
    moduleExports = given;
  });
  return loading;
}
