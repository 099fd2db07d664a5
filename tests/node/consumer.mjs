// A throwaway app that installs the built package from its tarball, the
// way a user's project would, so tests import "orderpay" by name.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const root = new URL("../..", import.meta.url).pathname;

export function makeConsumer() {
  const dir = mkdtempSync(join(tmpdir(), "orderpay-consumer-"));
  const npm = (...args) => execFileSync("npm", args, { cwd: dir, stdio: ["ignore", "pipe", "pipe"] }).toString();
  const tarball = npm("pack", join(root, "pkg"), "--pack-destination", dir, "--silent").trim().split("\n").pop();
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
  npm("install", "--no-audit", "--no-fund", "--offline", join(dir, tarball));
  return {
    dir,
    /** Runs a module in the consumer app and returns what it printed. */
    run(file, source) {
      writeFileSync(join(dir, file), source);
      return execFileSync("node", [file], { cwd: dir, stdio: ["ignore", "pipe", "pipe"] }).toString();
    },
  };
}

/** The README's code blocks marked `<!-- example: KIND -->`. */
export function readmeExamples(kind) {
  const readme = readFileSync(join(root, "README.md"), "utf8");
  const pattern = new RegExp("<!-- example: " + kind + " -->\\s*```js\\n([\\s\\S]*?)```", "g");
  return [...readme.matchAll(pattern)].map((m) => m[1]);
}
