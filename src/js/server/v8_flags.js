// Imported first by cli.js, before the WebAssembly module loads. Node 20's
// V8 (11.3) can crash in its deoptimizer ("unreachable code" in
// DoComputeBuiltinContinuation) when it has inlined JS-to-WebAssembly calls
// into optimized code and then deoptimizes it: under a few thousand
// requests a second the server died within seconds. Not inlining those
// calls avoids it; newer V8s do not need this.
import { setFlagsFromString } from "node:v8";

if (Number(process.versions.v8.split(".")[0]) < 12) setFlagsFromString("--no-turbo-inline-js-wasm-calls");
