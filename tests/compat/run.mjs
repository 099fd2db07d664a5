// Runs every fixture app of fixtures/ with the real tools (tests/compat's
// package.json, pinned), each against the package installed two ways:
// from its packed tarball, and as a linked folder (what `npm install
// ../orderpay/pkg` makes: a symlink to a folder outside node_modules, the
// case where Vitest inlines the package, Vite serves it from outside its
// root and babel-jest transforms it). Two runs at a time. Prints one line
// per run as it ends, then "N passed, N failed"; exits non-zero when one
// failed.
//
//   node tests/compat/run.mjs [--only NAME-PART] [--mode tarball|linked] [--tools current|next]
//
// Layout of a run: .run/<mode>/node_modules/orderpay, and each fixture
// copied to .run/<mode>/<fixture>/, so that the fixture resolves
// `orderpay` from .run/<mode>/node_modules and every tool from
// tests/compat/node_modules further up.
//
// Two sets of tools. On Node 20, tests/compat's own (MSW 2, Vitest 4,
// jsdom 29). On Node 22 and later, next/'s newer ones (MSW 3, Vitest 5,
// jsdom 31, Vitest's browser mode), which need Node 22: the run then lives
// in next/.run/, so that a fixture resolves those from next/node_modules
// first and the other tools from tests/compat/node_modules above it.
// --tools overrides the choice.
import { spawn, execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { dirname, extname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { compatFiles, runnerBlocks } from "../docs.mjs";
import { STORIES } from "../node/copy-stories.mjs";

const compat = dirname(fileURLToPath(import.meta.url));
const root = join(compat, "..", "..");
const args = process.argv.slice(2);
const tools = args.includes("--tools") ? args[args.indexOf("--tools") + 1] : Number(process.versions.node.split(".")[0]) >= 22 ? "next" : "current";
const toolsDir = tools === "next" ? join(compat, "next") : compat;
const runDir = join(toolsDir, ".run");
const fixtures = join(compat, "fixtures");
const bin = {
  jest: join(compat, "node_modules/jest/bin/jest.js"),
  vitest: join(toolsDir, "node_modules/vitest/vitest.mjs"),
  vite7: join(compat, "node_modules/vite7/bin/vite.js"),
  vite8: join(compat, "node_modules/vite/bin/vite.js"),
  playwright: join(compat, "node_modules/@playwright/test/cli.js"),
  tsc: join(compat, "node_modules/typescript/bin/tsc"),
};

const only = args.includes("--only") ? args[args.indexOf("--only") + 1] : null;
const modes = args.includes("--mode") ? [args[args.indexOf("--mode") + 1]] : ["tarball", "linked"];

// ---------------------------------------------------------------- setup

/** Installs the package into .run/<mode>/ the given way. */
function install(mode) {
  const dir = join(runDir, mode);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: `compat-${mode}`, private: true }) + "\n");
  let target;
  if (mode === "tarball") {
    const out = execFileSync("npm", ["pack", join(root, "pkg"), "--pack-destination", runDir, "--silent"], { encoding: "utf8" });
    target = join(runDir, out.trim().split("\n").pop());
  } else {
    // A folder of its own, outside any node_modules, as in a monorepo: its
    // optional peer msw resolves from tests/compat/node_modules above it.
    target = join(runDir, "linked-src", "orderpay");
    cpSync(join(root, "pkg"), target, { recursive: true });
  }
  execFileSync("npm", ["install", "--offline", "--no-audit", "--no-fund", "--no-package-lock", target], {
    cwd: dir,
    stdio: ["ignore", "pipe", "pipe"],
  });
}

/**
 * Copies the fixture's folders (later ones over earlier), with the
 * documentation's blocks for them, and the shared flow into .run/<mode>/<name>/.
 */
async function place(mode, name, sources) {
  const dir = join(runDir, mode, name);
  rmSync(dir, { recursive: true, force: true });
  for (const source of sources) {
    cpSync(join(fixtures, source), dir, { recursive: true });
    // The documentation's section for this runner, as written.
    for (const [file, code] of compatFiles(source)) writeFileSync(join(dir, file), code);
    for (const [file, code] of await copiedTests(source)) writeFileSync(join(dir, file), code);
  }
  const flow = readFileSync(join(fixtures, "shared", "flow.js"));
  writeFileSync(join(dir, "flow.js"), flow);
  writeFileSync(join(dir, "flow.mjs"), flow);
  return dir;
}

/**
 * service.exportTest's copies of tests/node/copy-stories.mjs for the
 * Vitest and Playwright fixtures, as `[file, text]`: a copy that does not
 * pass fails the fixture. The Playwright copies open their own blank
 * page: the fixture's app sends requests of its own as it loads.
 */
async function copiedTests(fixture) {
  const format = { vitest: "vitest", playwright: "playwright" }[fixture];
  if (format === undefined) return [];
  const { Service } = await import(join(root, "pkg", "index.js"));
  return Object.entries(STORIES).map(([name, story]) => {
    const service = story(Service);
    const text = service.exportTest(format, { name: `copied: ${name}` });
    service.free();
    return [`copied-${name}.${format === "vitest" ? "test" : "spec"}.js`, text];
  });
}

// ---------------------------------------------------------------- helpers

/** Runs a command; resolves with its output, rejects with it when it fails or times out. */
function run(command, commandArgs, { cwd, env = {}, timeout = 240_000 } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, commandArgs, {
      cwd,
      env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0", CI: "1", ...env },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    const timer = setTimeout(() => {
      process.kill(-child.pid, "SIGKILL");
      reject(new Error(`timed out after ${timeout / 1000}s\n${output}`));
    }, timeout);
    child.on("close", (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(output);
      else reject(new Error(`${command} ${commandArgs.join(" ")} exited with ${code}\n${output}`));
    });
  });
}

/** Starts a long-running command (a dev server); stop() ends it and its children. */
function start(command, commandArgs, { cwd, env = {} } = {}) {
  const child = spawn(command, commandArgs, {
    cwd,
    env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0", ...env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  return {
    output: () => output,
    stop() {
      try {
        process.kill(-child.pid, "SIGTERM");
      } catch {
        // already gone
      }
    },
  };
}

const TYPES = { ".html": "text/html", ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm", ".json": "application/json" };

/** A static file server on 127.0.0.1 for `dir`; counts requests under /api (there is no backend). */
async function serve(dir) {
  let apiHits = 0;
  const server = createServer((request, response) => {
    const path = normalize(decodeURIComponent(new URL(request.url, "http://localhost").pathname));
    if (path.startsWith("/api")) apiHits++;
    const file = join(dir, path.endsWith("/") ? `${path}index.html` : path);
    if (!file.startsWith(dir) || !existsSync(file)) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" });
    response.end(readFileSync(file));
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    apiHits: () => apiHits,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/** A port nothing listens on now, on 127.0.0.1, for a server we start. */
async function freePort() {
  const probe = createServer();
  await new Promise((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

async function waitForHttp(url, timeout = 60_000) {
  const end = Date.now() + timeout;
  while (Date.now() < end) {
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url} did not answer within ${timeout / 1000}s`);
}

/** The one Chromium of the run's pages, launched by the first that asks (a promise: two runs may ask at once). */
let browser = null;
function theBrowser() {
  browser ??= chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run", "--disable-sync"],
  });
  return browser;
}

/**
 * Opens a fixture page and waits for its #out: "ok" with no console
 * error, no uncaught exception, no failed request, no 4xx/5xx answer and
 * no .wasm fetched.
 */
async function openPage(url, { wasmFile = false } = {}) {
  const context = await (await theBrowser()).newContext();
  const page = await context.newPage();
  const problems = [];
  page.on("console", (message) => message.type() === "error" && problems.push(`console error: ${message.text()}`));
  page.on("pageerror", (error) => problems.push(`uncaught: ${error.message}`));
  page.on("requestfailed", (request) => problems.push(`request failed: ${request.url()} ${request.failure()?.errorText}`));
  page.on("response", (response) => response.status() >= 400 && problems.push(`HTTP ${response.status()}: ${response.url()}`));
  // The default entry has the module inline: a .wasm fetched means it did not.
  const wasmFetched = [];
  page.on("request", (request) => /\.wasm(\?|$)/.test(request.url()) && wasmFetched.push(request.url()));
  try {
    await page.goto(url);
    await page.waitForFunction(() => document.querySelector("#out")?.textContent, null, { timeout: 90_000 });
    const text = await page.textContent("#out");
    if (!text.startsWith("ok")) problems.unshift(`the page says: ${text}`);
    if (wasmFile && wasmFetched.length !== 1) problems.push(`expected the .wasm fetched once, got ${wasmFetched.length}`);
    if (!wasmFile && wasmFetched.length) problems.push(`the module is inline, yet ${wasmFetched.join(", ")} was fetched`);
  } finally {
    await context.close();
  }
  if (problems.length) throw new Error(problems.join("\n"));
}

/** A dev server, opened in Chromium. */
async function devServer(viteBin, dir) {
  const port = await freePort();
  const server = start("node", [viteBin, "--host", "127.0.0.1", "--port", String(port), "--strictPort"], { cwd: dir });
  try {
    await waitForHttp(`http://127.0.0.1:${port}/`);
    await openPage(`http://127.0.0.1:${port}/`);
  } catch (error) {
    error.message += `\n--- dev server output:\n${server.output()}`;
    throw error;
  } finally {
    server.stop();
  }
}

/** A production build, served statically and opened in Chromium. */
async function built(dir, distDir, page = "/", options = {}) {
  const server = await serve(distDir);
  try {
    await openPage(server.url + page, options);
  } finally {
    await server.close();
  }
}

// ---------------------------------------------------------------- fixtures

const nodeEsm = { NODE_OPTIONS: "--experimental-vm-modules --no-warnings" };

/** name, folders to copy (later over earlier), and what to run in the copy. */
const FIXTURES = [
  { name: "node-esm", from: ["node-esm"], run: (dir) => run("node", ["main.mjs"], { cwd: dir }) },
  { name: "node-cjs", from: ["node-cjs"], run: (dir) => run("node", ["main.cjs"], { cwd: dir }) },
  { name: "jest-babel-node", from: ["jest", "jest-babel"], run: (dir) => run("node", [bin.jest, "--ci", "--env=node", "service.test.js", "adapters.test.js", "checkout.test.js", "fake-timers.test.js"], { cwd: dir }) },
  { name: "jest-babel-jsdom", from: ["jest", "jest-babel"], run: (dir) => run("node", [bin.jest, "--ci", "--env=jsdom", "service.test.js"], { cwd: dir }) },
  { name: "jest-babel-fixed-jsdom", from: ["jest", "jest-babel"], run: (dir) => run("node", [bin.jest, "--ci", "adapters.test.js", "checkout.test.js"], { cwd: dir }) },
  { name: "jest-esm-node", from: ["jest", "jest-esm"], run: (dir) => run("node", [bin.jest, "--ci", "--env=node"], { cwd: dir, env: nodeEsm }) },
  { name: "jest-esm-jsdom", from: ["jest", "jest-esm"], run: (dir) => run("node", [bin.jest, "--ci", "--env=jsdom", "service.test.js"], { cwd: dir, env: nodeEsm }) },
  { name: "jest-esm-fixed-jsdom", from: ["jest", "jest-esm"], run: (dir) => run("node", [bin.jest, "--ci", "--env=jest-fixed-jsdom", "adapters.test.js", "msw.test.js", "checkout.test.js"], { cwd: dir, env: nodeEsm }) },
  { name: "vitest-node", from: ["vitest"], run: (dir) => run("node", [bin.vitest, "run", "--environment", "node"], { cwd: dir }) },
  { name: "vitest-jsdom", from: ["vitest"], run: (dir) => run("node", [bin.vitest, "run", "--environment", "jsdom"], { cwd: dir }) },
  { name: "vitest-happy-dom", from: ["vitest"], run: (dir) => run("node", [bin.vitest, "run", "--environment", "happy-dom"], { cwd: dir }) },
  { name: "vite7-dev", from: ["vite", "browser-app"], run: (dir) => devServer(bin.vite7, dir) },
  { name: "vite8-dev", from: ["vite", "browser-app"], run: (dir) => devServer(bin.vite8, dir) },
  {
    name: "vite7-build",
    from: ["vite", "browser-app"],
    run: async (dir) => {
      await run("node", [bin.vite7, "build"], { cwd: dir });
      await built(dir, join(dir, "dist"));
    },
  },
  {
    name: "vite8-build",
    from: ["vite", "browser-app"],
    run: async (dir) => {
      await run("node", [bin.vite8, "build"], { cwd: dir });
      await built(dir, join(dir, "dist"));
    },
  },
  {
    // orderpay/slim: Vite emits the .wasm and the page fetches it.
    name: "vite8-slim-build",
    from: ["vite", "browser-app", "slim-app"],
    run: async (dir) => {
      await run("node", [bin.vite8, "build"], { cwd: dir });
      await built(dir, join(dir, "dist"), "/", { wasmFile: true });
    },
  },
  {
    name: "webpack",
    from: ["browser-app", "webpack"],
    run: async (dir) => {
      await run("node", ["build.mjs"], { cwd: dir });
      await built(dir, dir);
    },
  },
  {
    name: "script-module",
    from: ["browser-app", "script-module"],
    // Served from .run/<mode>/, so that /node_modules/orderpay/ is there.
    run: (dir) => built(dir, dirname(dir), "/script-module/"),
  },
  {
    name: "playwright",
    from: ["playwright"],
    run: async (dir) => {
      cpSync(join(root, "www", "sw-demo", "app.js"), join(dir, "public", "app.js"));
      const port = String(await freePort());
      return run("node", [bin.playwright, "test", "--workers=1"], { cwd: dir, env: { PORT: port } });
    },
  },
  {
    // Vitest's browser mode (Vitest 5, Node 22 and later): a real Chromium page.
    name: "vitest-browser",
    from: ["vitest-browser"],
    tools: "next",
    run: (dir) => run("node", [bin.vitest, "run"], { cwd: dir }),
  },
  ...["bundler", "node16", "nodenext"].map((resolution) => ({
    name: `tsc-${resolution}`,
    from: ["types"],
    run: async (dir) => {
      writeReadmeExamples(dir);
      await run("node", [bin.tsc, "-p", `tsconfig.${resolution}.json`], { cwd: dir });
      // The examples that import Node's modules, with Node's types, as a Node project has them.
      const config = { extends: `./tsconfig.${resolution}.json`, compilerOptions: { types: ["node"] }, include: ["readme-node/*.js"] };
      writeFileSync(join(dir, "tsconfig.node.json"), JSON.stringify(config) + "\n");
      return run("node", [bin.tsc, "-p", "tsconfig.node.json"], { cwd: dir });
    },
  })),
];

/**
 * The documentation's examples (Node, fetch, MSW, replay, the runners'
 * sections) as JavaScript files, as written, for tsc with checkJs: into
 * readme/, checked without Node's types (`"types": []`, so that none leans
 * on them), or readme-node/ for those that import `node:` modules or read
 * `process` (the node:test recipes, a node:http server, a worker's index).
 * Those that pass MSW 2's `onUnhandledRequest` are checked against MSW 2
 * only: MSW 3's types name that option `onUnhandledFrame`.
 */
function writeReadmeExamples(dir) {
  const examples = runnerBlocks();
  const msw2Only = (code) => tools === "next" && /\bonUnhandledRequest\b/.test(code);
  mkdirSync(join(dir, "readme"), { recursive: true });
  mkdirSync(join(dir, "readme-node"), { recursive: true });
  const typed = examples.filter((e) => e.typecheck && !msw2Only(e.code));
  for (const { marker, name, kind, index, code: written } of typed) {
    const code = marker === "compat" ? siblingsRenamed(written, name, typed) : written;
    const folder = /^import .* from "node:/m.test(code) || /\bprocess\./.test(code) ? "readme-node" : "readme";
    // An example without an import is a script run as a module (top-level await): tsc is told so.
    const module = /^(import|export) /m.test(code) ? code : `${code}\nexport {};\n`;
    writeFileSync(join(dir, folder, `${kind}-${index}.js`), module);
  }
}

/**
 * A runner's section that imports another of its fixture's sections
 * (`./webhook-route.js`), with the import naming that section's file as
 * written for tsc (`./vitest-webhook-route-js-1.js`); both are written to
 * the same folder when they need the same types.
 */
function siblingsRenamed(code, name, blocks) {
  const fixture = name.split("/")[0];
  return code.replace(/from "\.\/([\w.-]+)"/g, (whole, file) => {
    const sibling = blocks.find((b) => b.marker === "compat" && b.name === `${fixture}/${file}`);
    return sibling ? `from "./${sibling.kind}-${sibling.index}.js"` : whole;
  });
}

// ---------------------------------------------------------------- tools

/** The version of `name` a fixture under .run/ resolves: the first node_modules/<name> up from there. */
function resolvedVersion(name) {
  for (let dir = runDir; dir !== dirname(dir); dir = dirname(dir)) {
    const manifest = join(dir, "node_modules", name, "package.json");
    if (existsSync(manifest)) return JSON.parse(readFileSync(manifest, "utf8")).version;
  }
  return "missing";
}

/**
 * Checks that the run is the one it says: the children's `node` is this
 * Node (it is first on PATH), and the fixtures resolve the versions the
 * tool set pins. Prints them.
 */
function checkTools() {
  const childNode = execFileSync("node", ["-p", "process.version"], { encoding: "utf8" }).trim();
  if (childNode !== process.version) {
    throw new Error(`the \`node\` on PATH is ${childNode}, this run's is ${process.version}: put the Node under test first on PATH`);
  }
  const pinned = JSON.parse(readFileSync(join(toolsDir, "package.json"), "utf8")).devDependencies;
  const versions = ["msw", "vitest", "jsdom"].map((name) => [name, resolvedVersion(name)]);
  const wrong = versions.filter(([name, version]) => version !== pinned[name]);
  if (wrong.length) {
    const install = tools === "next" ? "setup_nodes (.ci/nodes.sh)" : "setup (.ci/lib.sh)";
    throw new Error(`tools ${tools}: ${wrong.map(([name, version]) => `${name} ${version}, pinned ${pinned[name]}`).join("; ")}: run ${install}`);
  }
  console.log(`Node ${process.version}, tools ${tools}: ${versions.map(([name, version]) => `${name} ${version}`).join(", ")}`);
}

// ---------------------------------------------------------------- main

const selected = FIXTURES.filter((fixture) => (!only || fixture.name.includes(only)) && (!fixture.tools || fixture.tools === tools));
rmSync(runDir, { recursive: true, force: true });
checkTools();
for (const mode of modes) install(mode);
// Every run of every mode, the longest (HEAVY) first, so that none of them
// starts last and keeps the other core idle at the end.
const HEAVY = ["tsc-", "vitest-jsdom", "playwright", "webpack"];
const heavy = (fixture) => HEAVY.some((part) => fixture.name.startsWith(part));
const runs = modes.flatMap((mode) => selected.map((fixture) => ({ mode, fixture })));
const queue = [...runs.filter((r) => heavy(r.fixture)), ...runs.filter((r) => !heavy(r.fixture))];
let passed = 0;
let failed = 0;

/** Runs the queue's next fixture until none is left. */
async function worker() {
  for (let next = queue.shift(); next; next = queue.shift()) {
    const { mode, fixture } = next;
    const started = Date.now();
    const label = `${fixture.name} (${mode})`;
    try {
      const dir = await place(mode, fixture.name, fixture.from);
      await fixture.run(dir);
      passed++;
      console.log(`ok   ${label} ${((Date.now() - started) / 1000).toFixed(1)}s`);
    } catch (error) {
      failed++;
      console.log(`FAIL ${label} ${((Date.now() - started) / 1000).toFixed(1)}s\n${String(error?.message ?? error).replace(/^/gm, "     ")}`);
    }
  }
}

// Two at a time, one a core: each is its own process (a runner, a bundler,
// tsc, a dev server) in its own folder, and none decides on the wall clock
// (their waits are bounds of a minute and more). Pages share one Chromium,
// each in a context of its own.
try {
  await Promise.all([worker(), worker()]);
} finally {
  await (await browser)?.close();
}
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed ? 1 : 0;
