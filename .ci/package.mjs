// Turns wasm-pack's output in pkg/ into the published package: one package
// for browsers (ES module with its init) and Node (loads itself), its
// extra entry points from src/js/, and types with no `any` in them.
import { copyFileSync, cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const pkg = join(root, "pkg");
const js = join(root, "src", "js");

const extra = readdirSync(js).filter((f) => f.endsWith(".js") || f.endsWith(".d.ts"));
for (const file of extra) copyFileSync(join(js, file), join(pkg, file));

// The HTTP server (`npx orderpay serve`) and the playground it serves.
for (const dir of ["server", "playground"]) rmSync(join(pkg, dir), { recursive: true, force: true });
cpSync(join(js, "server"), join(pkg, "server"), { recursive: true });
cpSync(join(root, "www"), join(pkg, "playground"), { recursive: true });

const manifest = JSON.parse(readFileSync(join(pkg, "package.json"), "utf8"));
manifest.files = [...new Set([...manifest.files, ...extra, "server/", "playground/", "openapi.json", "README.md"])];
manifest.bin = { orderpay: "./server/cli.js" };
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
  "./openapi.json": "./openapi.json",
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

// wasm-bindgen describes the raw wasm exports with `any`; nobody should
// call them, so the public type keeps only the memory.
const dts = join(pkg, "orderpay.d.ts");
const types = readFileSync(dts, "utf8");
const raw = /export interface InitOutput \{[\s\S]*?\n\}/;
if (!raw.test(types)) throw new Error("package.mjs: InitOutput not found in orderpay.d.ts");
writeFileSync(
  dts,
  types.replace(raw, "export interface InitOutput {\n    readonly memory: WebAssembly.Memory;\n}"),
);

// The OpenAPI document, rendered by the module from its own route table.
const { openapi } = await import(join(pkg, "node.js"));
writeFileSync(join(pkg, "openapi.json"), openapi() + "\n");
