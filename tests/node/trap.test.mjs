// A panic in the package's module is never silent. The module is built
// without std and its panic handler traps at once (src/wasm/abort.rs):
// no message, no console output, but the call throws a
// WebAssembly.RuntimeError, which the JS layer reports. Inputs never
// reach a panic, so the test calls the raw binding the JS layer wraps and
// asks it for more scratch memory than a module can have: the failed
// allocation panics.
import assert from "node:assert/strict";
import { test } from "node:test";

// The Node entry loads the module the binding then drives.
await import(new URL("../../pkg/node.js", import.meta.url).href);
const { RawService } = await import(new URL("../../pkg/binding.js", import.meta.url).href);

test("a panic inside the module throws a WebAssembly.RuntimeError", () => {
  const raw = new RawService();
  assert.throws(() => raw.reserve(0xffff_ffff), (error) => error instanceof WebAssembly.RuntimeError);
});
