// The documentation holds together: every fenced code block of README.md
// and docs/ is run by some test (its marker names a kind that a test asks
// for), the map (docs/architecture.md) has a paragraph for every folder of
// src/, www/ and .ci/ and names nothing that is not in the tree, every
// source file starts with a comment that says its role (the map of files),
// links between the documents lead somewhere, and the README and the map
// stay short enough to read.
import assert from "node:assert/strict";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { dirname, join, relative } from "node:path";
import { test } from "node:test";

import { allBlocks, brokenLinks, docFiles, fencedBlocks, prose, root, where } from "../docs.mjs";

/** The reader and this file name kinds without reading them. */
const NOT_CONSUMERS = [join(root, "tests/docs.mjs"), join(root, "tests/node/docs.test.mjs")];

/** The test sources of the repository, without installed packages or build output. */
function testSources(dir = join(root, "tests"), found = []) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (["node_modules", ".run", ".venv", "artifacts", "target", "corpus"].includes(entry.name)) continue;
    const path = join(dir, entry.name);
    if (NOT_CONSUMERS.includes(path)) continue;
    if (entry.isDirectory()) testSources(path, found);
    else if (/\.(mjs|js)$/.test(entry.name)) found.push(readFileSync(path, "utf8"));
  }
  return found;
}

/** The kinds the tests ask for, by the reader's function: examples("node"), shellBlocks("admin"). */
function askedFor(fn) {
  const pattern = new RegExp(`\\b${fn}\\("([\\w-]+)"\\)`, "g");
  return new Set(testSources().flatMap((source) => [...source.matchAll(pattern)].map((m) => m[1])));
}

/** The fixture folders run.mjs places (its `from: [...]` lists). */
function compatFixtures() {
  const run = readFileSync(join(root, "tests/compat/run.mjs"), "utf8");
  return new Set([...run.matchAll(/from: \[([^\]]*)\]/g)].flatMap((m) => [...m[1].matchAll(/"([\w-]+)"/g)].map((n) => n[1])));
}

test("every fenced block carries a marker that says which test runs it", () => {
  const unmarked = allBlocks().filter((b) => !["example", "compat", "shell"].includes(b.marker));
  assert.deepEqual(unmarked.map(where), [], "blocks without <!-- example: KIND -->, <!-- compat: FIXTURE/FILE --> or <!-- shell: KIND -->");
});

test("every marker is read by a test, once", () => {
  const blocks = allBlocks();
  const examples = askedFor("examples");
  const shells = askedFor("shellBlocks");
  const fixtures = compatFixtures();
  const unread = blocks.filter(
    (b) =>
      (b.marker === "example" && !examples.has(b.name)) ||
      (b.marker === "shell" && !shells.has(b.name)) ||
      (b.marker === "compat" && !fixtures.has(b.name.split("/")[0])),
  );
  assert.deepEqual(unread.map((b) => `${where(b)} ${b.marker}: ${b.name}`), [], "markers no test reads");
  // A consumer takes the one block of its kind: a second would go unrun.
  const seen = new Map();
  for (const b of blocks) {
    const key = `${b.marker}: ${b.name}`;
    assert.ok(!seen.has(key), `${key} marks ${seen.get(key)} and ${where(b)}`);
    seen.set(key, where(b));
  }
  // And every kind asked for is in the documentation.
  const marked = new Set(blocks.map((b) => `${b.marker}: ${b.name}`));
  for (const kind of examples) assert.ok(marked.has(`example: ${kind}`), `a test asks for examples("${kind}"), which no block is`);
  for (const kind of shells) assert.ok(marked.has(`shell: ${kind}`), `a test asks for shellBlocks("${kind}"), which no block is`);
});

test("the reader finds a block's marker, and a block without one", () => {
  const text = "<!-- example: demo -->\n```js\nconsole.log(1);\n```\n\nText.\n\n```sh\nls\n```\n";
  const [marked, bare] = fencedBlocks("x.md", text);
  assert.deepEqual([marked.marker, marked.name, marked.code], ["example", "demo", "console.log(1);\n"]);
  assert.equal(bare.marker, null);
});

/** The map of the tree: a paragraph per source folder, under its Code map heading. */
const MAP = "docs/architecture.md";

/** The trees whose every folder the map must have a paragraph for. */
const SOURCE_ROOTS = ["src/", "www/", ".ci/"];

/** The tracked files under `dirs`, from git, or every file where there is no .git. */
function trackedFiles(dirs) {
  let listed;
  try {
    listed = execFileSync("git", ["ls-files", "--", ...dirs], { cwd: root, encoding: "utf8" }).split("\n").filter(Boolean);
  } catch {
    listed = dirs.flatMap((dir) => readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile()).map((e) => relative(root, join(e.parentPath, e.name))));
  }
  return listed.filter((path) => existsSync(join(root, path))).sort();
}

/** Every folder of the source trees that holds a file, as `src/sim/`. */
function sourceFolders() {
  return [...new Set(trackedFiles(SOURCE_ROOTS).map((path) => `${dirname(path)}/`))].sort();
}

/**
 * The Code map's sections of a map's text: the `### ` headings under
 * `## Code map`, each with the folders its heading names (each in
 * backticks, ending in `/`) and the text under it.
 */
function mapSections(text) {
  const start = text.search(/^## Code map$/m);
  if (start < 0) return [];
  const rest = text.slice(start).split("\n").slice(1).join("\n");
  const end = rest.search(/^## /m);
  const map = end < 0 ? rest : rest.slice(0, end);
  return map.split(/^### /m).slice(1).map((section) => {
    const [heading, ...body] = section.split("\n");
    return { heading, folders: [...heading.matchAll(/`([^`\s]+\/)`/g)].map((m) => m[1]), body: body.join("\n").trim() };
  });
}

/**
 * The paths a text names in backticks: from the repository's root
 * (`src/domain/id.rs`, `tests/*.rs`, `www/`), or a file's path within a
 * folder (`exchange/later.rs`); not placeholders (`www/NAME.js`), URLs'
 * paths (`/pkg/`, `./pkg/`) or package entries (`orderpay/browser`).
 */
function namedPaths(text) {
  const rooted = /^(src|www|tests|docs|\.ci)\//;
  const file = /^[\w.*-]+(\/[\w.*-]+)*\.(rs|js|mjs|ts|json|sh|md|html|css)$/;
  return [...new Set([...text.matchAll(/`([^`\s]+)`/g)].map((m) => m[1]))]
    .filter((path) => (rooted.test(path) || (path.includes("/") && file.test(path))) && !/\b[A-Z]{3,}\b/.test(path));
}

/** The folders a path within a folder is read from, the root first: `domain/id.rs` is src/'s. */
const WITHIN = ["", "src/", "src/js/", "src/gateway/"];

function exists(path) {
  return WITHIN.some((dir) => existsFrom(dir + path));
}

function existsFrom(path) {
  if (!path.includes("*")) return existsSync(join(root, path));
  const dir = dirname(path);
  const pattern = new RegExp(`^${path.slice(dir.length + 1).replace(/\./g, "\\.").replace(/\*/g, ".*")}$`);
  return existsSync(join(root, dir)) && readdirSync(join(root, dir)).some((name) => pattern.test(name));
}

test("the map has a paragraph, with its invariant, for every folder of src/, www/ and .ci/", () => {
  const sections = mapSections(readFileSync(join(root, MAP), "utf8"));
  const named = new Set(sections.flatMap((s) => s.folders));
  const folders = sourceFolders();
  assert.ok(folders.length > 15, `${folders.length} folders found under ${SOURCE_ROOTS.join(", ")}`);
  assert.deepEqual(folders.filter((f) => !named.has(f)), [], `${MAP}'s Code map has no heading for these folders`);
  const bare = sections.filter((s) => s.folders.length === 0 || !/\*\*Invariant:\*\*/.test(s.body) || s.body.split("\n").length < 3);
  assert.deepEqual(bare.map((s) => s.heading), [], `${MAP}: sections without a folder, a paragraph or its **Invariant:**`);
});

test("the map names no folder and no path that is not in the tree", () => {
  const text = readFileSync(join(root, MAP), "utf8");
  const folders = new Set(sourceFolders());
  const headed = mapSections(text).flatMap((s) => s.folders);
  const inSources = (f) => SOURCE_ROOTS.some((r) => f.startsWith(r));
  const missing = headed.filter((f) => (inSources(f) ? !folders.has(f) : !existsSync(join(root, f))));
  assert.deepEqual(missing, [], `${MAP}'s Code map has headings for folders that hold no source`);
  const paths = namedPaths(text);
  assert.ok(paths.length > 50, `${paths.length} paths read from ${MAP}`);
  assert.deepEqual(paths.filter((p) => !exists(p)), [], `${MAP} names paths that do not exist`);
});

/** The source files that must start with a comment saying their role. */
const HEADED = /\.(rs|js|mjs|ts|sh)$|^\.ci\/[^./]+$/;

/**
 * The words of the comment a source file starts with, after a `#!` line:
 * `//!` lines in Rust, `#` lines in a shell script, `//` lines or one
 * `/* … *\/` block in JS and TypeScript. Empty when it starts otherwise.
 */
function headerWords(path, text) {
  const lines = text.split("\n");
  const from = lines[0]?.startsWith("#!") ? 1 : 0;
  const shell = /\.sh$/.test(path) || /^\.ci\/[^./]+$/.test(path);
  const prefix = path.endsWith(".rs") ? "//!" : shell ? "#" : "//";
  let comment = [];
  if (!shell && lines[from]?.startsWith("/*")) {
    const end = lines.findIndex((line, i) => i >= from && line.includes("*/"));
    comment = lines.slice(from, end < 0 ? lines.length : end + 1);
  } else {
    for (const line of lines.slice(from)) {
      if (!line.startsWith(prefix) || (prefix === "//" && line.startsWith("///"))) break;
      comment.push(line.slice(prefix.length));
    }
  }
  const words = comment.join(" ").replace(/\/\*+|\*\/|^\s*\*/g, " ").split(/\s+/).filter((w) => /\w/.test(w));
  return /^(eslint|@ts-|prettier|global)/.test(words[0] ?? "") ? [] : words;
}

test("every source file of src/, www/ and .ci/ starts with a comment that says its role", () => {
  const files = trackedFiles(SOURCE_ROOTS).filter((path) => HEADED.test(path));
  assert.ok(files.length > 200, `${files.length} source files found`);
  const bare = files.filter((path) => headerWords(path, readFileSync(join(root, path), "utf8")).length < 6);
  assert.deepEqual(bare, [], "files that do not start with a comment of at least six words saying their role");
});

test("the readers find the map's folders and a file's header, and their absence", () => {
  const map = "# M\n\n## Code map\n\nIntro.\n\n### `src/a/`, `src/b/`\n\nA and b.\n**Invariant:** none.\n\n## After\n\n### `src/c/`\n";
  assert.deepEqual(mapSections(map).map((s) => [s.folders, s.body]), [[["src/a/", "src/b/"], "A and b.\n**Invariant:** none."]]);
  const named = namedPaths("`src/a.rs`, `www/NAME.js`, `a/x.js`, `tests/*.rs`, `/pkg/a.js`, `orderpay/msw`, `x.rs`, `www/`");
  assert.deepEqual(named, ["src/a.rs", "a/x.js", "tests/*.rs", "www/"]);
  const role = "the thing this file is for, in a few words";
  assert.equal(headerWords("src/a.rs", `//! ${role}\n\nuse x;\n`).length, 10);
  assert.equal(headerWords("src/a.rs", `// ${role}\nuse x;\n`).length, 0, "a Rust file's header is its //! doc");
  assert.equal(headerWords("src/a.js", `#!/usr/bin/env node\n// ${role}\nimport x;\n`).length, 10);
  assert.equal(headerWords("src/a.d.ts", `/**\n * ${role}\n */\nexport type X = 1;\n`).length, 10);
  assert.equal(headerWords("src/a.d.ts", `import type { X } from "./x.js";\n// ${role}\n`).length, 0);
  assert.equal(headerWords("www/a.js", "/* eslint-disable no-console */\nimport x;\n").length, 0);
  assert.equal(headerWords(".ci/run", `#!/usr/bin/env bash\n# ${role}\nset -e\n`).length, 10);
});

test("every link between the documents leads to a file, and to a heading there", () => {
  assert.deepEqual(brokenLinks(root, docFiles()), []);
});

test("the README and the map are at most 400 lines, with no dated headings and no HTML but the markers", () => {
  for (const file of ["README.md", MAP]) {
    const lines = readFileSync(join(root, file), "utf8").replace(/\n$/, "").split("\n").length;
    assert.ok(lines <= 400, `${file}: ${lines} lines`);
  }
  for (const file of docFiles()) {
    const text = readFileSync(join(root, file), "utf8");
    const dated = [...text.matchAll(/^#{1,6} .*\b\d{4}-\d{2}-\d{2}\b.*$/gm)].map((m) => m[0]);
    assert.deepEqual(dated, [], `${file}: dated headings`);
    const html = [...prose(text).matchAll(/<!--.*?-->|<\/?[a-zA-Z][^>]*>/g)]
      .map((m) => m[0])
      .filter((tag) => !/^<!-- (example|compat|shell): [\w./-]+ -->$/.test(tag));
    assert.deepEqual(html, [], `${file}: HTML beyond the markers`);
  }
});

test("the documents say what the package does today: no branch, and the webhooks the service sends", () => {
  for (const file of docFiles()) {
    assert.doesNotMatch(prose(readFileSync(join(root, file), "utf8")), /\bbranch(es)?\b/i, `${file} names a branch`);
  }
  const webhooks = readFileSync(join(root, "docs/webhooks.md"), "utf8");
  assert.doesNotMatch(webhooks, /sends no webhooks/);
  assert.match(webhooks, /^## What is sent$/m);
});
