// The V8 crash, reduced to its construct. A wasm export called from an
// optimized JS function is inlined there (--turbo-inline-js-wasm-calls,
// on by default); if that caller is deoptimized while the call runs (the
// export calls back into JS, and the JS invalidates the caller's code),
// V8 rebuilds the frame with a builtin continuation that must carry the
// call's result. Node 20 (V8 11.3) handles i32, i64, f32 and f64 results
// there, and reaches UNREACHABLE() for a reference (externref): "Fatal
// error ... unreachable code" in Deoptimizer::DoComputeBuiltinContinuation.
// The binding used to return JS objects (externref) from `handle`, and its
// conversions called back into JS; now every export returns numbers.
//
//   node --allow-natives-syntax tests/node/v8-deopt-probe.mjs num   # survives
//   node --allow-natives-syntax tests/node/v8-deopt-probe.mjs ref   # aborts on Node 20
import binaryen from "binaryen";

const wat = `(module
  (import "js" "poke" (func $poke))
  (import "js" "thing" (global $thing externref))
  (func (export "ref") (result externref) (call $poke) (global.get $thing))
  (func (export "num") (result i32) (call $poke) (i32.const 7)))`;
const module = binaryen.parseText(wat);
module.setFeatures(binaryen.Features.ReferenceTypes | binaryen.Features.MutableGlobals);

const which = process.argv[2] === "ref" ? "ref" : "num";
let caller;
let armed = false;
const imports = {
  js: {
    poke() {
      if (!armed) return;
      armed = false;
      // Deoptimizes the caller while the wasm call is on the stack.
      new Function("f", "%DeoptimizeFunction(f)")(caller);
    },
    thing: new WebAssembly.Global({ value: "externref", mutable: false }, { ok: 1 }),
  },
};
const { instance } = await WebAssembly.instantiate(module.emitBinary(), imports);
const call = instance.exports[which];
caller = (i) => {
  const r = call();
  return r === 7 || r?.ok === 1 ? i : -1;
};
const natives = (code) => new Function("f", code)(caller);
natives("%PrepareFunctionForOptimization(f)");
caller(1);
caller(2);
natives("%OptimizeFunctionOnNextCall(f)");
caller(3);
armed = true;
console.log(`${which}: survived (${caller(4)})`);
