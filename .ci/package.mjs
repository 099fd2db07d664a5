// Turns wasm-pack's output in pkg/ into the published package: one package
// for browsers (ES module with its init) and Node (loads itself), its
// extra entry points from src/js/, and types with no `any` in them.
//
// wasm-bindgen's glue (orderpay.js) becomes binding.js: the package's own
// orderpay.js (src/js/) is the public module, a JS layer that hands the
// WebAssembly module plain data only.
import { copyFileSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const pkg = join(root, "pkg");
const js = join(root, "src", "js");

renameSync(join(pkg, "orderpay.js"), join(pkg, "binding.js"));
renameSync(join(pkg, "orderpay.d.ts"), join(pkg, "binding.d.ts"));

// Garbage collection frees a RawService through wasm-bindgen's
// FinalizationRegistry. If the module had ever trapped, that free would
// throw inside the registry's callback, where nobody can catch it, and
// Node would exit: the callback swallows the error instead (the memory of
// a broken module is lost anyway).
const binding = join(pkg, "binding.js");
const glue = readFileSync(binding, "utf8");
const cleanup = /new FinalizationRegistry\(ptr => (wasm\.__wbg_rawservice_free\(ptr(?: >>> 0)?, 1\))\)/;
if (!cleanup.test(glue)) throw new Error("package.mjs: the RawService FinalizationRegistry was not found in the glue");
writeFileSync(
  binding,
  glue
    .replace(cleanup, (_, free) => `new FinalizationRegistry(ptr => { try { ${free}; } catch { /* a broken module */ } })`)
    .replace('@ts-self-types="./orderpay.d.ts"', '@ts-self-types="./binding.d.ts"'),
);

const extra = readdirSync(js).filter((f) => f.endsWith(".js") || f.endsWith(".d.ts"));
for (const file of extra) copyFileSync(join(js, file), join(pkg, file));

const manifest = JSON.parse(readFileSync(join(pkg, "package.json"), "utf8"));
manifest.files = [...new Set([...manifest.files, "binding.js", "binding.d.ts", ...extra, "README.md"])];
// In Node, each entry loads the WebAssembly module on import (node.js);
// elsewhere, the module is fetched on first use or by `await init()`.
manifest.exports = {
  ".": {
    types: "./orderpay.d.ts",
    node: "./node.js",
    default: "./orderpay.js",
  },
  "./fetch": {
    types: "./fetch.d.ts",
    node: "./fetch.node.js",
    default: "./fetch.js",
  },
  "./msw": {
    types: "./msw.d.ts",
    node: "./msw.node.js",
    default: "./msw.js",
  },
  "./browser": {
    types: "./browser.d.ts",
    default: "./browser.js",
  },
  "./worker.js": "./worker.js",
  "./orderpay_bg.wasm": "./orderpay_bg.wasm",
  "./package.json": "./package.json",
};
manifest.sideEffects = ["./node.js", "./*.node.js", "./worker.js", "./snippets/*"];
// orderpay/msw imports the user's own msw; nothing of it is bundled, and
// those who never import orderpay/msw need not have it.
manifest.peerDependencies = { msw: "^2.0.0" };
manifest.peerDependenciesMeta = { msw: { optional: true } };
manifest.keywords = ["mock", "api", "payments", "wasm", "testing", "tracing"];
writeFileSync(join(pkg, "package.json"), JSON.stringify(manifest, null, 2) + "\n");
copyFileSync(join(root, "README.md"), join(pkg, "README.md"));
