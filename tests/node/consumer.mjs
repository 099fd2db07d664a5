// A throwaway app that installs the built package from its tarball, the
// way a user's project would, so tests import "orderpay" by name.
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const root = new URL("../..", import.meta.url).pathname;

/**
 * The tarball of pkg/ as built now: packed once per build (pkg/.built's
 * time names it), not once per test file and Node, which all install the
 * same bytes.
 */
function packed(npm) {
  const built = statSync(join(root, "pkg", ".built")).mtimeMs;
  const cache = join(tmpdir(), `orderpay-packed-${createHash("sha256").update(root).digest("hex").slice(0, 16)}-${Math.round(built)}`);
  const tarball = join(cache, "orderpay.tgz");
  if (existsSync(tarball)) return tarball;
  const work = mkdtempSync(join(tmpdir(), "orderpay-pack-"));
  const name = npm("pack", join(root, "pkg"), "--pack-destination", work, "--silent").trim().split("\n").pop();
  mkdirSync(cache, { recursive: true });
  renameSync(join(work, name), tarball);
  rmSync(work, { recursive: true, force: true });
  return tarball;
}

/**
 * `link` names packages of tests/node_modules (msw...) to make visible to
 * the app, as if it had installed them itself: linked, not installed, so
 * that no test needs the network.
 */
export function makeConsumer({ link = [] } = {}) {
  const dir = mkdtempSync(join(tmpdir(), "orderpay-consumer-"));
  const npm = (...args) => execFileSync("npm", args, { cwd: dir, stdio: ["ignore", "pipe", "pipe"] }).toString();
  const tarball = packed(npm);
  copyFileSync(tarball, join(dir, "orderpay.tgz"));
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
  npm("install", "--no-audit", "--no-fund", "--offline", join(dir, "orderpay.tgz"));
  for (const name of link) {
    mkdirSync(join(dir, "node_modules", name, ".."), { recursive: true });
    symlinkSync(join(root, "tests", "node_modules", name), join(dir, "node_modules", name), "dir");
  }
  return {
    dir,
    /** Runs a module in the consumer app and returns what it printed. */
    run(file, source) {
      writeFileSync(join(dir, file), source);
      return execFileSync("node", [file], { cwd: dir, stdio: ["ignore", "pipe", "pipe"] }).toString();
    },
    /** Like run, but also gives what it wrote to stderr (warnings), and never throws. */
    runAll(file, source) {
      writeFileSync(join(dir, file), source);
      const result = spawnSync("node", [file], { cwd: dir, encoding: "utf8" });
      return { status: result.status, stdout: result.stdout, stderr: result.stderr };
    },
  };
}

/** The documentation's code blocks marked `<!-- example: KIND -->` (tests/docs.mjs reads them). */
export { examples } from "../docs.mjs";

/** Type declarations without their comments, whose prose may say "any". */
export function withoutComments(types) {
  return types.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "");
}
