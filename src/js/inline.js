// Loads the WebAssembly module on import, synchronously, from bytes that
// the build inlined as base64 (wasm-inline.js). No file to fetch or read:
// nothing depends on where the package sits, on `import.meta.url`, on a
// bundler serving a `.wasm`, or on the host's fetch and file system, so the
// same code runs in Node (ESM and CommonJS), Jest, Vitest, Vite, webpack
// and a plain browser page. orderpay/slim skips this for a separate file.
import { initSync } from "./orderpay.js";
import { markLoaded } from "./ready.js";
import { decodeBase64 } from "./base64.js";
import wasmBase64 from "./wasm-inline.js";

initSync({ module: decodeBase64(wasmBase64) });
markLoaded();
