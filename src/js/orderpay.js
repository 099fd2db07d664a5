// The package's main module, for browsers and Node alike: the Service,
// the free functions on one default instance, and init. In a browser,
// `await init()` once first; in Node, node.js has loaded the module.
import initBinding, { initSync as initBindingSync } from "./binding.js";
import { markLoaded } from "./ready.js";
import { Service } from "./service.js";

export { Service };
export { NetworkFaultError } from "./network_fault_error.js";
/** The scenario presets' documents, by name. */
export { presets } from "./presets.js";
export { traceHeaders } from "./trace_headers.js";
/** The OpenAPI 3.1 document of the eight endpoints and the challenge page, as JSON text. */
export { openapi } from "./openapi.js";

/** Loads the WebAssembly module (by default orderpay_bg.wasm, beside this file). */
export default async function init(moduleOrPath) {
  const output = await initBinding(moduleOrPath);
  markLoaded(output);
  return output;
}

/** Loads the WebAssembly module from bytes or a compiled module, at once. */
export function initSync(module) {
  const output = initBindingSync(module);
  markLoaded(output);
  return output;
}

let shared = null;

/** The default instance, made on first use, with a random seed. */
function instance() {
  shared ??= new Service();
  return shared;
}

/** `handle` on the default instance. */
export function handle(method, path, body, headers) {
  return instance().handle(method, path, body, headers);
}

/** `request` on the default instance. */
export function request(method, path, body, headers) {
  return instance().request(method, path, body, headers);
}

/** `logs` of the default instance. */
export function logs(after) {
  return instance().logs(after);
}

/** `clearLogs` of the default instance. */
export function clearLogs() {
  instance().clearLogs();
}
