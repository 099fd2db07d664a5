// How long a copied Vitest test of the typical flow takes to run, import
// included: service.exportTest("vitest") of tests/node/copy-stories.mjs's
// typical flow, written into a throwaway project where `orderpay` is the
// built pkg/, run with the compat suite's Vitest (`vitest run`) ROUNDS
// times. Prints the median of Vitest's own Duration (transform, import
// of the package and its WebAssembly, the test) and of the whole process
// (Vitest's start included). A benchmark that prints, not a timed test.
//
//   node tests/bench/copied-test.mjs [--rounds N]
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

import { Service } from "../../pkg/index.js";
import { STORIES } from "../node/copy-stories.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
const args = process.argv.slice(2);
const rounds = args.includes("--rounds") ? Number(args[args.indexOf("--rounds") + 1]) : 5;
// Under tests/compat, so Vitest resolves from tests/compat/node_modules.
const dir = join(root, "tests", "compat", ".run", "bench-copied");
const vitest = join(root, "tests", "compat", "node_modules", "vitest", "vitest.mjs");

rmSync(dir, { recursive: true, force: true });
mkdirSync(join(dir, "node_modules"), { recursive: true });
writeFileSync(join(dir, "package.json"), JSON.stringify({ private: true, type: "module" }));
symlinkSync(join(root, "pkg"), join(dir, "node_modules", "orderpay"), "dir");
const service = STORIES.typical(Service);
writeFileSync(join(dir, "copied-typical.test.js"), service.exportTest("vitest", { name: "copied: typical" }));
service.free();

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const reported = [];
const parts = { import: [], tests: [] };
const whole = [];
for (let i = 0; i < rounds; i++) {
  const started = process.hrtime.bigint();
  const ran = spawnSync("node", [vitest, "run", "--environment", "node"], { cwd: dir, encoding: "utf8", env: { ...process.env, NO_COLOR: "1", CI: "1" } });
  whole.push(Number(process.hrtime.bigint() - started) / 1e6);
  if (ran.status !== 0) throw new Error(`the copied test failed:\n${ran.stdout}\n${ran.stderr}`);
  const m = /Duration\s+([\d.]+)(ms|s)/.exec(ran.stdout);
  if (!m) throw new Error(`no Duration in Vitest's output:\n${ran.stdout}`);
  reported.push(m[2] === "s" ? Number(m[1]) * 1000 : Number(m[1]));
  for (const name of Object.keys(parts)) parts[name].push(Number(new RegExp(`${name} ([\\d.]+)ms`).exec(ran.stdout)?.[1] ?? NaN));
}
console.log(`copied Vitest test of the typical flow (${rounds} runs, medians):`);
console.log(`  Vitest's Duration (transform, import, test): ${Math.round(median(reported))} ms`);
console.log(`    of which the import of the test file (orderpay and its WebAssembly): ${Math.round(median(parts.import))} ms, the test: ${Math.round(median(parts.tests))} ms`);
console.log(`  the whole vitest run process: ${Math.round(median(whole))} ms`);
rmSync(dir, { recursive: true, force: true });
