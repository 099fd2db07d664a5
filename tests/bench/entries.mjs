// What each entry costs: the bytes a page downloads for an app that makes
// one Service, bundled and minified by esbuild for the browser, raw and
// gzipped; and, in the same run, how long `import` takes in Node until the
// first Service can be made (best of several fresh processes).
//   default  import { Service } from "orderpay": one JS file, wasm inlined
//   slim     import init, { Service } from "orderpay/slim"; await init():
//            the JS plus orderpay_bg.wasm, fetched beside it
// Run after building the package: node tests/bench/entries.mjs [runs]
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, symlinkSync, mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

const root = new URL("../..", import.meta.url).pathname;
const { buildSync } = createRequire(join(root, "tests", "package.json"))("esbuild");
const runs = Number(process.argv[2] ?? 7);

const app = mkdtempSync(join(tmpdir(), "orderpay-entries-"));
mkdirSync(join(app, "node_modules"));
symlinkSync(join(root, "pkg"), join(app, "node_modules", "orderpay"), "dir");
writeFileSync(join(app, "package.json"), '{ "private": true, "type": "module" }\n');
const SOURCES = {
  default: 'import { Service } from "orderpay";\nconsole.log(new Service({ seed: 1 }).seed);\n',
  slim: 'import init, { Service } from "orderpay/slim";\nawait init();\nconsole.log(new Service({ seed: 1 }).seed);\n',
};

const kb = (n) => `${n.toLocaleString("en-US")} B`;
const wasm = readFileSync(join(root, "pkg", "orderpay_bg.wasm"));
const sizes = {};
for (const [name, source] of Object.entries(SOURCES)) {
  writeFileSync(join(app, `${name}.js`), source);
  const [out] = buildSync({
    entryPoints: [join(app, `${name}.js`)],
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    write: false,
    logLevel: "silent",
  }).outputFiles;
  const files = [out.contents, ...(name === "slim" ? [wasm] : [])];
  sizes[name] = {
    raw: files.reduce((sum, bytes) => sum + bytes.length, 0),
    gzip: files.reduce((sum, bytes) => sum + gzipSync(bytes, { level: 9 }).length, 0),
    js: out.contents.length,
  };
}

/** ms from the start of `import` to a first Service, in a fresh Node process. */
function importTime(name) {
  const script =
    name === "default"
      ? 'const t = performance.now(); const { Service } = await import("orderpay"); new Service({ seed: 1 }); console.log(performance.now() - t);'
      : 'import { readFileSync } from "node:fs"; const t = performance.now(); const { initSync, Service } = await import("orderpay/slim"); initSync({ module: readFileSync(new URL(import.meta.resolve("orderpay/orderpay_bg.wasm"))) }); new Service({ seed: 1 }); console.log(performance.now() - t);';
  writeFileSync(join(app, `time-${name}.mjs`), script);
  return Number(execFileSync("node", [`time-${name}.mjs`], { cwd: app, encoding: "utf8" }).trim());
}
const times = { default: Infinity, slim: Infinity };
for (let i = 0; i < runs; i++) {
  for (const name of Object.keys(times)) times[name] = Math.min(times[name], importTime(name));
}
rmSync(app, { recursive: true, force: true });

for (const name of Object.keys(SOURCES)) {
  const s = sizes[name];
  const parts = name === "slim" ? ` (JS ${kb(s.js)} + wasm ${kb(wasm.length)})` : "";
  console.log(`${name.padEnd(8)} ${kb(s.raw)} raw${parts}, ${kb(s.gzip)} gzipped; Node import to first Service ${times[name].toFixed(1)} ms (best of ${runs})`);
}
console.log(
  `default / slim: ${(sizes.default.raw / sizes.slim.raw).toFixed(2)}x raw, ${(sizes.default.gzip / sizes.slim.gzip).toFixed(2)}x gzipped, ${(times.default / times.slim).toFixed(2)}x import time`,
);
