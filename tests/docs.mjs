// The documentation's code blocks, read in one place for every test that
// runs them: README.md and every Markdown file under docs/. A block is
// marked by an HTML comment on the line before its opening fence:
//
//   <!-- example: KIND -->        an API example, run as written by the test
//                                 that asks for examples("KIND")
//   <!-- compat: FIXTURE/FILE --> a runner's section: that file of that
//                                 fixture of tests/compat, run by run.mjs
//   <!-- shell: KIND -->          shell commands, run against `orderpay serve`
//                                 by the test that asks for shellBlocks("KIND")
//
// tests/node/docs.test.mjs fails when a fenced block has no marker, or a
// marker no test reads.
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";

export const root = new URL("..", import.meta.url).pathname;

/**
 * The examples TypeScript does not check under strict (docs/test-runners.md#typescript says which are):
 * docs/api.md's browser example imports a build folder by its path, which exists only where someone
 * built it; webhooks-express and webhook-testing-express need Express's types, and pact-consumer and pact-provider
 * @pact-foundation/pact, which a project installs (tests/server/pact.test.mjs runs those two). Every other example is checked.
 */
const UNTYPED_EXAMPLES = ["browser", "webhooks-express", "webhook-testing-express", "pact-consumer", "pact-provider"];
/** Runner sections whose code TypeScript checks too (Jest's globals need @types/jest, which a user may not have). */
const TYPED_FIXTURES = ["vitest", "playwright", "browser-app"];

/** README.md and docs/**\/*.md, as paths relative to `base` (the repository, or an installed package). */
export function docFiles(base = root) {
  const found = ["README.md"];
  const walk = (dir) => {
    if (!existsSync(join(base, dir))) return;
    for (const entry of readdirSync(join(base, dir), { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".md")) found.push(path);
    }
  };
  walk("docs");
  return found;
}

const FENCE = /^( *)(`{3,}|~{3,})\s*([\w+-]*)/;
const MARKER = /^\s*<!-- (\w+)(?:: ([\w./-]+))? -->\s*$/;

/** Every fenced block of one Markdown text: {file, line, lang, code, marker, name}, marker null when none. */
export function fencedBlocks(file, text = readFileSync(join(root, file), "utf8")) {
  const lines = text.split("\n");
  const blocks = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]);
    if (!open) continue;
    const [, indent, fence, lang] = open;
    let end = i + 1;
    while (end < lines.length && !lines[end].trimStart().startsWith(fence)) end++;
    const code = lines.slice(i + 1, end).map((line) => line.slice(indent.length)).join("\n") + "\n";
    let before = i - 1;
    while (before >= 0 && lines[before].trim() === "") before--;
    const mark = before >= 0 ? MARKER.exec(lines[before]) : null;
    blocks.push({ file, line: i + 1, lang, code, marker: mark?.[1] ?? null, name: mark?.[2] ?? null });
    i = end;
  }
  return blocks;
}

/** Every fenced block of README.md and docs/. */
export function allBlocks() {
  return docFiles().flatMap((file) => fencedBlocks(file));
}

/** The code of the blocks marked `<!-- example: KIND -->`, in reading order. */
export function examples(kind) {
  return allBlocks().filter((b) => b.marker === "example" && b.name === kind).map((b) => b.code);
}

/** The code of the blocks marked `<!-- shell: KIND -->`. */
export function shellBlocks(kind) {
  return allBlocks().filter((b) => b.marker === "shell" && b.name === kind).map((b) => b.code);
}

/**
 * The example and compat blocks as the compatibility fixtures take them:
 * {marker, name, kind, index, code, typecheck}.
 */
export function runnerBlocks() {
  const counts = new Map();
  return allBlocks()
    .filter((b) => (b.marker === "example" || b.marker === "compat") && /^(js|ts)$/.test(b.lang))
    .map(({ marker, name, code }) => {
      const index = (counts.get(name) ?? 0) + 1;
      counts.set(name, index);
      const kind = marker === "example" ? name : name.replace(/[/.]/g, "-");
      const typecheck = marker === "example" ? !UNTYPED_EXAMPLES.includes(name) : TYPED_FIXTURES.includes(name.split("/")[0]);
      return { marker, name, kind, index, code, typecheck };
    });
}

/** A runner's sections for one fixture folder: [file, code] pairs. */
export function compatFiles(fixture) {
  return runnerBlocks()
    .filter((block) => block.marker === "compat" && block.name.startsWith(`${fixture}/`))
    .map((block) => [block.name.slice(fixture.length + 1), block.code]);
}

/** Where a block is, for messages: docs/api.md:42. */
export function where(block) {
  return `${relative(root, join(root, block.file))}:${block.line}`;
}

/** A document's prose: fenced blocks and inline code taken out. */
export function prose(text) {
  return text.replace(/^ *```[\s\S]*?^ *```/gm, "").replace(/`[^`\n]*`/g, "");
}

/** GitHub's anchors of a Markdown text's headings. */
export function anchors(text) {
  const found = new Set();
  const counts = new Map();
  for (const [, heading] of text.replace(/^ *```[\s\S]*?^ *```/gm, "").matchAll(/^#{1,6} (.+)$/gm)) {
    const slug = heading.toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, "").replace(/ /g, "-");
    const n = counts.get(slug) ?? 0;
    counts.set(slug, n + 1);
    found.add(n ? `${slug}-${n}` : slug);
  }
  return found;
}

/**
 * The relative links of `files` (paths under `base`) that lead to no file,
 * or to no heading of the Markdown file they name: ["docs/x.md: y.md#z"].
 */
export function brokenLinks(base, files) {
  const broken = [];
  for (const file of files) {
    const text = readFileSync(join(base, file), "utf8");
    for (const [, target] of prose(text).matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target)) continue;
      const [path, anchor] = target.split("#");
      const resolved = path ? normalize(join(dirname(file), path)) : file;
      if (!existsSync(join(base, resolved))) broken.push(`${file}: ${target}`);
      else if (anchor && resolved.endsWith(".md") && statSync(join(base, resolved)).isFile()) {
        if (!anchors(readFileSync(join(base, resolved), "utf8")).has(anchor)) broken.push(`${file}: ${target} (no such heading)`);
      }
    }
  }
  return broken;
}
