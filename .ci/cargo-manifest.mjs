// What the package's build reads from Cargo.toml, so that the build
// (.ci/lib.sh's build_package) and the benchmarks need no wasm-pack to
// read it, and each setting has one source.
//
//   node .ci/cargo-manifest.mjs wasm-opt-flags   wasm-opt's flags, one a line:
//                                                [package.metadata.wasm-pack.profile.release]
//   node .ci/cargo-manifest.mjs package-json     pkg/package.json as wasm-pack
//                                                writes it for --target web
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const cargoToml = fileURLToPath(new URL("../Cargo.toml", import.meta.url));

/** The `key = value` lines of one [section] of Cargo.toml (the subset of TOML it uses: one line a value). */
function section(text, name) {
  const lines = text.split("\n");
  const start = lines.findIndex((line) => line.trim() === `[${name}]`);
  if (start < 0) throw new Error(`Cargo.toml: no [${name}]`);
  const values = new Map();
  for (const line of lines.slice(start + 1)) {
    if (/^\s*\[/.test(line)) break;
    const pair = /^([A-Za-z0-9_-]+)\s*=\s*(.+?)\s*$/.exec(line);
    // A TOML string or array of strings of one line is JSON too.
    if (pair && /^["[]/.test(pair[2])) values.set(pair[1], JSON.parse(pair[2]));
  }
  return values;
}

/** wasm-opt's flags for the release module, as wasm-pack would pass them. */
export function wasmOptFlags(text = readFileSync(cargoToml, "utf8")) {
  const flags = section(text, "package.metadata.wasm-pack.profile.release").get("wasm-opt");
  if (!Array.isArray(flags) || !flags.every((flag) => typeof flag === "string")) {
    throw new Error("Cargo.toml: [package.metadata.wasm-pack.profile.release] has no wasm-opt = [...] of strings");
  }
  return flags;
}

/**
 * The package.json wasm-pack 0.15 writes for `--target web`, in its order of fields, for the
 * wasm-bindgen output in pkg/ (its snippets/ folder listed when there is one).
 */
export function packageJson(text = readFileSync(cargoToml, "utf8")) {
  const snippets = existsSync(fileURLToPath(new URL("../pkg/snippets", import.meta.url)));
  const pkg = section(text, "package");
  const name = pkg.get("name");
  const manifest = {
    name,
    type: "module",
    description: pkg.get("description"),
    version: pkg.get("version"),
    license: pkg.get("license"),
    repository: pkg.has("repository") ? { type: "git", url: pkg.get("repository") } : undefined,
    files: [`${name}_bg.wasm`, `${name}.js`, `${name}.d.ts`, ...(snippets ? ["snippets"] : [])],
    main: `${name}.js`,
    types: `${name}.d.ts`,
    sideEffects: ["./snippets/*"],
  };
  return JSON.stringify(manifest, null, 2) + "\n";
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const what = process.argv[2];
  if (what === "wasm-opt-flags") process.stdout.write(wasmOptFlags().join("\n") + "\n");
  else if (what === "package-json") process.stdout.write(packageJson());
  else {
    console.error("usage: node .ci/cargo-manifest.mjs wasm-opt-flags|package-json");
    process.exit(2);
  }
}
