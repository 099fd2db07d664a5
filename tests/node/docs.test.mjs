// The documentation holds together: every fenced code block of README.md
// and docs/ is run by some test (its marker names a kind that a test asks
// for), the tree of docs/architecture.md names every file of src/, www/ and
// .ci/ with its role and nothing that does not exist, links
// between the documents lead somewhere, and the README stays short.
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
  const unmarked = allBlocks().filter((b) => !["example", "compat", "shell", "tree"].includes(b.marker));
  assert.deepEqual(unmarked.map(where), [], "blocks without <!-- example: KIND -->, <!-- compat: FIXTURE/FILE -->, <!-- shell: KIND --> or <!-- tree -->");
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
  for (const b of blocks.filter((b) => b.marker !== "tree")) {
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

/**
 * The entries a `<!-- tree -->` block names: `dir/` lines open a folder for
 * the lines indented under them; a line indented 20 or more carries the
 * description of the line above over. Each entry is its path, whether it is a
 * folder, and whether its line says what it is (text after the name).
 */
function treeEntries(code) {
  const entries = [];
  const stack = [];
  for (const line of code.split("\n")) {
    const indent = line.length - line.trimStart().length;
    const names = /^([\w.*-]+\/?(?:, [\w.*-]+\/?)*)(.*)$/.exec(line.trimStart());
    if (!names || indent >= 20) continue;
    while (stack.length && stack.at(-1).indent >= indent) stack.pop();
    const parent = stack.map((s) => s.name).join("");
    const list = names[1].split(", ");
    for (const name of list) {
      entries.push({ path: parent + name, dir: name.endsWith("/"), role: /^\s{2,}\S/.test(names[2]), alone: list.length === 1 });
    }
    if (list[0].endsWith("/")) stack.push({ indent, name: list[0] });
  }
  return entries;
}

function exists(path) {
  if (!path.includes("*")) return existsSync(join(root, path));
  const dir = dirname(path);
  const pattern = new RegExp(`^${path.slice(dir.length + 1).replace(/\./g, "\\.").replace(/\*/g, ".*")}$`);
  return existsSync(join(root, dir)) && readdirSync(join(root, dir)).some((name) => pattern.test(name));
}

/** The folders whose every file the code map must name, one line each with its role. */
const MAPPED = ["src/", "www/", ".ci/"];

/** The files under the mapped folders: tracked ones from git, or every file where there is no .git. */
function mappedFiles() {
  let listed;
  try {
    listed = execFileSync("git", ["ls-files", "--", ...MAPPED], { cwd: root, encoding: "utf8" }).split("\n").filter(Boolean);
  } catch {
    listed = MAPPED.flatMap((dir) => readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile()).map((e) => relative(root, join(e.parentPath, e.name))));
  }
  return listed.filter((path) => existsSync(join(root, path))).sort();
}

function theTree() {
  const trees = allBlocks().filter((b) => b.marker === "tree" && b.file === "docs/architecture.md");
  assert.equal(trees.length, 1, "docs/architecture.md has one source tree");
  return { block: trees[0], entries: treeEntries(trees[0].code) };
}

test("every path the source tree names exists", () => {
  for (const tree of allBlocks().filter((b) => b.marker === "tree")) {
    const paths = treeEntries(tree.code).map((e) => e.path);
    assert.ok(paths.length > 50, `${where(tree)}: ${paths.length} paths read`);
    assert.deepEqual(paths.filter((p) => !exists(p)), [], `${where(tree)} names paths that do not exist`);
  }
});

test("the source tree names every file of src/, www/ and .ci/, one line each with its role", () => {
  const { block, entries } = theTree();
  const mapped = entries.filter((e) => !e.dir && MAPPED.some((dir) => e.path.startsWith(dir)));
  const named = new Set(mapped.map((e) => e.path));
  const files = mappedFiles();
  assert.ok(files.length > 150, `${files.length} files found under ${MAPPED.join(", ")}`);
  assert.deepEqual(files.filter((f) => !named.has(f)), [], `${where(block)} does not name these files`);
  assert.deepEqual(mapped.filter((e) => e.path.includes("*")).map((e) => e.path), [], `${where(block)}: a pattern, not a file`);
  assert.deepEqual(mapped.filter((e) => !e.alone || !e.role).map((e) => e.path), [], `${where(block)}: not a line of its own with its role`);
});

test("the tree reader tells a file with its role from a bare name and a list", () => {
  const entries = treeEntries("src/  the core\n  a.rs  does a\n  b.rs\n  c.rs, d.rs  two\n                      more of c\n  e/  folder\n    f.rs  does f\n");
  assert.deepEqual(entries.map((e) => [e.path, e.role, e.alone]), [
    ["src/", true, true], ["src/a.rs", true, true], ["src/b.rs", false, true], ["src/c.rs", true, false],
    ["src/d.rs", true, false], ["src/e/", true, true], ["src/e/f.rs", true, true],
  ]);
});

test("every link between the documents leads to a file, and to a heading there", () => {
  assert.deepEqual(brokenLinks(root, docFiles()), []);
});

test("the README is at most 400 lines, with no dated headings and no HTML but the markers", () => {
  assert.ok(readFileSync(join(root, "README.md"), "utf8").split("\n").length <= 400);
  for (const file of docFiles()) {
    const text = readFileSync(join(root, file), "utf8");
    const dated = [...text.matchAll(/^#{1,6} .*\b\d{4}-\d{2}-\d{2}\b.*$/gm)].map((m) => m[0]);
    assert.deepEqual(dated, [], `${file}: dated headings`);
    const html = [...prose(text).matchAll(/<!--.*?-->|<\/?[a-zA-Z][^>]*>/g)]
      .map((m) => m[0])
      .filter((tag) => !/^<!-- (example|compat|shell): [\w./-]+ -->$|^<!-- tree -->$/.test(tag));
    assert.deepEqual(html, [], `${file}: HTML beyond the markers`);
  }
});

test("the documents say what the package does today: no branch, and no webhook the service would send", () => {
  for (const file of docFiles()) {
    assert.doesNotMatch(prose(readFileSync(join(root, file), "utf8")), /\bbranch(es)?\b/i, `${file} names a branch`);
  }
  const webhooks = readFileSync(join(root, "docs/webhooks.md"), "utf8");
  assert.match(webhooks, /^The service sends no webhooks\./m);
  assert.doesNotMatch(webhooks, /the service's own events|deliveries of the service/i);
});
