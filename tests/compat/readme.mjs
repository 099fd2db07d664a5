// The README's code blocks that the fixtures run as written:
// `<!-- example: KIND -->` (the API examples, also run by tests/node) and
// `<!-- compat: FIXTURE/FILE -->` (the runners' sections: each becomes
// that file of that fixture).
import { readFileSync } from "node:fs";

/** The API examples that TypeScript checks under strict (the others need a page: see tests/e2e). */
const TYPED_EXAMPLES = ["node", "fetch", "install", "msw", "replay", "pieces"];
/** Runner sections whose code TypeScript checks too (Jest's globals need @types/jest, which a user may not have). */
const TYPED_FIXTURES = ["vitest", "playwright", "browser-app"];

export function readmeBlocks(path) {
  const readme = readFileSync(path, "utf8");
  const pattern = /<!-- (example|compat): ([\w./-]+) -->\s*```(?:js|ts)\n([\s\S]*?)```/g;
  const counts = new Map();
  return [...readme.matchAll(pattern)].map(([, marker, name, code]) => {
    const index = (counts.get(name) ?? 0) + 1;
    counts.set(name, index);
    const kind = marker === "example" ? name : name.replace(/[/.]/g, "-");
    const typecheck = marker === "example" ? TYPED_EXAMPLES.includes(name) : TYPED_FIXTURES.includes(name.split("/")[0]);
    return { marker, name, kind, index, code, typecheck };
  });
}

/** The runner sections' files for one fixture folder: [file, code] pairs. */
export function compatFiles(path, fixture) {
  return readmeBlocks(path)
    .filter((block) => block.marker === "compat" && block.name.startsWith(`${fixture}/`))
    .map((block) => [block.name.slice(fixture.length + 1), block.code]);
}
