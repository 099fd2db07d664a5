// Turns wasm-pack's output in pkg/ into the published package: one package
// for browsers (ES module with its init) and Node (loads itself), its
// extra entry points from src/js/, and types with no `any` in them.
//
// wasm-bindgen's glue (orderpay.js) becomes binding.js: the package's own
// orderpay.js (src/js/) is the public module, a JS layer that hands the
// WebAssembly module plain data only.
import { copyFileSync, cpSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { commonJs, inlineWasm, typeRoutes } from "./inline.mjs";

const root = new URL("..", import.meta.url).pathname;
const pkg = join(root, "pkg");
const js = join(root, "src", "js");

renameSync(join(pkg, "orderpay.js"), join(pkg, "binding.js"));
renameSync(join(pkg, "orderpay.d.ts"), join(pkg, "binding.d.ts"));

// Garbage collection frees a RawService (and a RawPieces, a RawRestoring, a RawTape)
// through wasm-bindgen's FinalizationRegistry. If the module had ever trapped, that free would
// throw inside the registry's callback, where nobody can catch it, and
// Node would exit: the callback swallows the error instead (the memory of
// a broken module is lost anyway).
const binding = join(pkg, "binding.js");
const glue = readFileSync(binding, "utf8");
const cleanup = /new FinalizationRegistry\(ptr => (wasm\.__wbg_raw\w+_free\(ptr(?: >>> 0)?, 1\))\)/g;
for (const name of ["rawservice", "rawpieces", "rawrestoring", "rawtape"]) {
  if (!glue.includes(`new FinalizationRegistry(ptr => wasm.__wbg_${name}_free(`)) {
    throw new Error(`package.mjs: the ${name} FinalizationRegistry was not found in the glue`);
  }
}
writeFileSync(
  binding,
  glue
    .replace(cleanup, (_, free) => `new FinalizationRegistry(ptr => { try { ${free}; } catch { /* a broken module */ } })`)
    .replace('@ts-self-types="./orderpay.d.ts"', '@ts-self-types="./binding.d.ts"'),
);

const extra = readdirSync(js).filter((f) => f.endsWith(".js") || f.endsWith(".d.ts"));
for (const file of extra) copyFileSync(join(js, file), join(pkg, file));

// The scenario document's JSON Schema, and the presets' documents the core
// reads (orderpay/scenario.schema.json, orderpay/scenarios/NAME.json).
copyFileSync(join(js, "scenario.schema.json"), join(pkg, "scenario.schema.json"));
rmSync(join(pkg, "scenarios"), { recursive: true, force: true });
cpSync(join(root, "src", "sim", "scenario", "presets"), join(pkg, "scenarios"), { recursive: true });

// The HTTP server (`npx orderpay serve`) and the playground it serves.
for (const dir of ["server", "playground"]) rmSync(join(pkg, dir), { recursive: true, force: true });
cpSync(join(js, "server"), join(pkg, "server"), { recursive: true });
cpSync(join(root, "www"), join(pkg, "playground"), { recursive: true });

const manifest = JSON.parse(readFileSync(join(pkg, "package.json"), "utf8"));
manifest.files = [...new Set([...manifest.files, "binding.js", "binding.d.ts", ...extra, "server/", "playground/", "openapi.json", "openapi-admin.json", "scenario.schema.json", "scenarios/", "README.md", "docs/"])];
manifest.bin = { orderpay: "./server/cli.js" };
// Every entry loads the WebAssembly module on import, from bytes inlined
// as base64 (inline.mjs), in every environment alike: no `node`/`browser`
// conditions, so a runner that picks either (Jest's jsdom, Vitest) gets
// the same code. `import` gets ES modules, `require` their CommonJS copy in
// cjs/. The slim entries leave the .wasm in its own file, loaded by
// `await init()` (or on first use, by the adapters). orderpay/webhooks
// loads no WebAssembly at all.
typeRoutes(pkg);
const added = [...inlineWasm(pkg), ...commonJs(pkg)];
manifest.files = [...new Set([...manifest.files, ...added])];
const entry = (types, file) => ({
  import: { types: `./${types}`, default: `./${file}` },
  require: { types: `./cjs/${types}`, default: `./cjs/${file}` },
});
manifest.main = "./cjs/index.js";
manifest.module = "./index.js";
manifest.exports = {
  ".": entry("orderpay.d.ts", "index.js"),
  "./fetch": entry("fetch.d.ts", "fetch.inline.js"),
  "./msw": entry("msw.d.ts", "msw.inline.js"),
  "./playwright": entry("playwright.d.ts", "playwright.js"),
  // Webhook signatures (Web Crypto only): no WebAssembly, so no inline or slim copy.
  "./webhooks": entry("webhooks.d.ts", "webhooks.js"),
  "./browser": { types: "./browser.d.ts", default: "./browser.inline.js" },
  "./slim": { types: "./orderpay.d.ts", default: "./slim.js" },
  "./slim/fetch": { types: "./fetch.d.ts", default: "./fetch.js" },
  "./slim/msw": { types: "./msw.d.ts", default: "./msw.js" },
  "./slim/browser": { types: "./browser.d.ts", default: "./browser.js" },
  "./worker.js": "./worker.js",
  "./orderpay_bg.wasm": "./orderpay_bg.wasm",
  "./openapi.json": "./openapi.json",
  "./openapi-admin.json": "./openapi-admin.json",
  "./scenario.schema.json": "./scenario.schema.json",
  "./scenarios/*.json": "./scenarios/*.json",
  "./package.json": "./package.json",
};
// The entries that load the module must be kept whole: a bundler that
// took index.js for side-effect free would go straight to the modules it
// re-exports and skip its `import "./inline.js"`.
manifest.sideEffects = [
  "./inline.js",
  "./index.js",
  "./node.js",
  "./*.inline.js",
  "./playwright.js",
  "./cjs/*",
  "./worker.js",
  "./snippets/*",
];
// orderpay/msw imports the user's own msw; nothing of it is bundled, and
// those who never import orderpay/msw need not have it.
manifest.peerDependencies = { msw: "^2.0.0 || ^3.0.0" };
manifest.peerDependenciesMeta = { msw: { optional: true } };
manifest.keywords = ["mock", "api", "payments", "wasm", "testing", "tracing"];
writeFileSync(join(pkg, "package.json"), JSON.stringify(manifest, null, 2) + "\n");
// The user README, and docs/ beside it so that its relative links lead
// somewhere in node_modules too.
copyFileSync(join(root, "README.md"), join(pkg, "README.md"));
rmSync(join(pkg, "docs"), { recursive: true, force: true });
cpSync(join(root, "docs"), join(pkg, "docs"), { recursive: true });

// wasm-bindgen describes the raw wasm exports in the glue's types; nobody
// should call them, so those types keep only the memory.
const dts = join(pkg, "binding.d.ts");
const types = readFileSync(dts, "utf8");
const raw = /export interface InitOutput \{[\s\S]*?\n\}/;
if (!raw.test(types)) throw new Error("package.mjs: InitOutput not found in binding.d.ts");
writeFileSync(
  dts,
  types.replace(raw, "export interface InitOutput {\n    readonly memory: WebAssembly.Memory;\n}"),
);

// The OpenAPI document, as the core renders it from its route table
// (shipped in the JS layer: src/js/openapi.js, checked by tests/openapi_js.rs).
const { openapi } = await import(join(pkg, "node.js"));
writeFileSync(join(pkg, "openapi.json"), openapi() + "\n");
// The admin API's, written from its routes' table (src/js/server/admin.js, admin-openapi.js).
const { adminOpenapi } = await import(join(pkg, "server", "admin-openapi.js"));
writeFileSync(join(pkg, "openapi-admin.json"), JSON.stringify(adminOpenapi(manifest), null, 2) + "\n");
