// The container image of docs/container.md, as CI `services:` run it: its
// file tree made by container/tree.sh, the Containerfile's ENTRYPOINT and
// CMD started in it as its USER with its ENV and the variables of the
// doc's `podman run` (no arguments), `chroot`ed into the tree when run as
// root, so that only the tree's Node, libraries and files are there. One
// server start; against it the HEALTHCHECK's command, the doc's curl
// walkthrough, the Postman collection (newman) and a webhook; then a stop.
// ORDERPAY_IMAGE_TEST=podman (as CI runs it) builds the image with buildah
// and runs it with podman instead (the sandbox's settings: CONTAINERS_CONF
// and CONTAINERS_STORAGE_CONF from tests/server/podman/, or the flags in
// ORDERPAY_PODMAN_FLAGS and ORDERPAY_PODMAN_RUN_FLAGS; docs/container.md).
import assert from "node:assert/strict";
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";

import { shellBlocks } from "../docs.mjs";
import { root } from "./serve.mjs";

const PODMAN = process.env.ORDERPAY_IMAGE_TEST === "podman";
const AS_ROOT = process.getuid?.() === 0;
const { parseArgs, usage, variableOf } = await import(join(root, "pkg", "server", "options.js"));
const { parse: parseYaml } = createRequire(join(root, "tests", "server", "package.json"))("yaml");

/** The one block of a kind (tests/node/docs.test.mjs checks there is no second). */
function only(blocks) {
  assert.equal(blocks.length, 1, "one block of its kind in the documentation");
  return blocks[0];
}

/** The block's commands: continuation lines joined, blank and comment lines dropped. */
const commands = (block) => block.replace(/\\\n\s*/g, " ").split("\n").map((l) => l.trim()).filter((l) => l && !l.startsWith("#"));

/** The Containerfile's instructions: { ENV: {...}, USER, ENTRYPOINT: [...], CMD: [...], HEALTHCHECK: [...], EXPOSE }. */
function containerfile() {
  const text = readFileSync(join(root, "container", "Containerfile"), "utf8").replace(/\\\n\s*/g, " ");
  const get = (word) => new RegExp(`^${word} (.*)$`, "m").exec(text)?.[1];
  const env = Object.fromEntries([...get("ENV").matchAll(/(\w+)=(\S+)/g)].map((m) => [m[1], m[2]]));
  return {
    env,
    user: get("USER"),
    expose: get("EXPOSE"),
    entrypoint: JSON.parse(get("ENTRYPOINT")),
    cmd: JSON.parse(get("CMD")),
    healthcheck: JSON.parse(/ CMD (\[.*\])$/.exec(get("HEALTHCHECK"))[1]),
  };
}

/** The `-e NAME=VALUE` pairs of the doc's `podman run` line. */
function runVariables() {
  const run = commands(only(shellBlocks("container-build"))).find((l) => l.startsWith("podman run"));
  return Object.fromEntries([...run.matchAll(/-e (\w+)=(\S+)/g)].map((m) => [m[1], m[2]]));
}

/** A free port on loopback. */
function freePort() {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

const image = containerfile();
const [uid, gid] = image.user.split(":").map(Number);
let tree;
let hooks;
const received = [];

before(async () => {
  const dir = mkdtempSync(join(tmpdir(), "orderpay-image-"));
  tree = join(dir, "tree");
  execFileSync("bash", [join(root, "container", "tree.sh"), tree], { stdio: ["ignore", "ignore", "inherit"] });
  hooks = createServer((req, res) => {
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () => (received.push({ headers: req.headers, body }), res.end()));
  });
  await new Promise((resolve) => hooks.listen(0, "127.0.0.1", resolve));
});

after(() => {
  hooks?.close();
  if (tree) rmSync(join(tree, ".."), { recursive: true, force: true });
});

/**
 * `command` (the image's paths) as the image runs it: chroot into the tree
 * as its user when root, else the tree's own files as this user.
 */
function inTree(command) {
  if (AS_ROOT) return ["chroot", `--userspec=${uid}:${gid}`, tree, ...command];
  return command.map((word) => (word.startsWith("/") && existsSync(join(tree, word)) ? join(tree, word) : word));
}

/** The variables a command in the tree gets: the image's, `env`, and a PATH as a runtime sets one (chroot is found on it). */
const withPath = (env) => ({ PATH: "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", ...image.env, ...env });

/** Starts the server; resolves { proc, output(), exited } once its ready line is out. */
function start(env) {
  const [file, ...args] = inTree([...image.entrypoint, ...image.cmd]);
  const proc = spawn(file, args, { env: withPath(env), stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  const exited = new Promise((resolve) => proc.on("exit", (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    // Only against a hang: the server is ready within a second.
    const timer = setTimeout(() => (proc.kill("SIGKILL"), reject(new Error(`no ready line within 60 s:\n${out}`))), 60_000);
    const look = () => /^orderpay ready on http:\/\/\S+$/m.test(out) && (clearTimeout(timer), resolve({ proc, output: () => out, exited }));
    proc.stdout.on("data", (d) => ((out += d), look()));
    proc.stderr.on("data", (d) => (out += d));
    exited.then((code) => reject(new Error(`exited (${code}) before its ready line:\n${out}`)));
  });
}

test("the Containerfile pulls no image, runs as the tree's non-root user, checks health with its own binary", () => {
  const text = readFileSync(join(root, "container", "Containerfile"), "utf8");
  assert.deepEqual(text.match(/^FROM .*$/gm), ["FROM scratch"]);
  assert.ok(uid > 0 && gid > 0, image.user);
  assert.match(readFileSync(join(tree, "etc", "passwd"), "utf8"), new RegExp(`^orderpay:x:${uid}:${gid}:`, "m"));
  assert.equal(image.expose, image.env.ORDERPAY_PORT);
  assert.deepEqual(image.healthcheck, [...image.entrypoint, "health"]);
  for (const path of [image.entrypoint[0], image.entrypoint[1]]) assert.ok(existsSync(join(tree, path)), path);
  // Stripped: the tree's Node is smaller than the one it came from.
  const node = join(root, "tests", "nodes", "node_modules", "node24", "bin", "node");
  assert.ok(statSync(join(tree, image.entrypoint[0])).size < statSync(node).size * 0.95);
});

test("the CI examples' variables are ones orderpay serve takes", () => {
  const github = parseYaml(only(shellBlocks("container-github"))).jobs.e2e.services.orderpay;
  const gitlab = parseYaml(only(shellBlocks("container-gitlab")));
  for (const env of [github.env, gitlab.e2e.variables, runVariables()]) {
    const own = Object.fromEntries(Object.entries(env).filter(([name]) => name !== "ORDERPAY_URL"));
    assert.doesNotThrow(() => parseArgs(["serve"], own), JSON.stringify(own));
  }
  assert.deepEqual(github.ports, [`${image.env.ORDERPAY_PORT}:${image.expose}`]);
});

/** Each option's variable in docs/server.md's table ("none" where it has none) and those docs/container.md names, as the server reads them. */
test("the docs name each option's variable as the server reads it", () => {
  const flags = [...usage().matchAll(/^ {2}(--[\w-]+)/gm)].map((m) => m[1]).filter((f) => f !== "--help");
  const table = readFileSync(join(root, "docs", "server.md"), "utf8").replaceAll("\\|", "/");
  for (const flag of flags) {
    const row = new RegExp(`^\\| [^|]*\`${flag}\\b[^|]*\\| ([^|]*) \\|`, "m").exec(table);
    assert.ok(row, `docs/server.md has a row for ${flag}`);
    let read = true;
    try {
      read = parseArgs(["serve"], { [variableOf(flag)]: "x" }).from !== undefined;
    } catch {
      // Read, and refused.
    }
    assert.equal(row[1] === "none" ? !read : row[1].includes(`\`${variableOf(flag)}\``), true, `${flag}: ${row[1]}`);
  }
  const said = readFileSync(join(root, "docs", "container.md"), "utf8").match(/ORDERPAY_[A-Z_]+/g);
  const own = new Set(flags.map(variableOf));
  const others = ["ORDERPAY_URL", "ORDERPAY_IMAGE_TEST", "ORDERPAY_PODMAN_FLAGS", "ORDERPAY_PODMAN_RUN_FLAGS"];
  assert.deepEqual([...new Set(said)].filter((name) => !own.has(name) && !others.includes(name)), []);
});

const NAME = `orderpay-test-${process.pid}`;
const words = (text) => (text ?? "").split(/\s+/).filter(Boolean);
const podman = (...args) => spawnSync("podman", [...words(process.env.ORDERPAY_PODMAN_FLAGS), ...args], { encoding: "utf8" });

/** The server in the tree: { health(), stop(), output(), fails(env) }. */
async function treeServer(env) {
  const server = await start(env);
  const run = (command, more = {}) => {
    const [file, ...args] = inTree(command);
    return spawnSync(file, args, { env: withPath({ ...env, ...more }), encoding: "utf8" });
  };
  return {
    output: server.output,
    health: () => run(image.healthcheck),
    stop: () => (server.proc.kill("SIGTERM"), server.exited),
    fails: (more) => run([...image.entrypoint, ...image.cmd], more),
  };
}

/** The image built with buildah from the same tree, run with podman on the host's network. */
async function podmanServer(env) {
  const build = spawnSync("buildah", [...words(process.env.ORDERPAY_PODMAN_FLAGS), "bud", "--format", "docker", "-t", NAME,
    "-f", join(root, "container", "Containerfile"), join(tree, "..")], { encoding: "utf8" });
  assert.equal(build.status, 0, build.stderr);
  const vars = Object.entries(env).flatMap(([k, v]) => ["-e", `${k}=${v}`]);
  const run = podman("run", "-d", "--name", NAME, "--network", "host", ...words(process.env.ORDERPAY_PODMAN_RUN_FLAGS), ...vars, NAME);
  assert.equal(run.status, 0, run.stderr);
  const output = () => podman("logs", NAME).stdout;
  for (let i = 0; i < 300 && !/^orderpay ready on /m.test(output()); i++) await new Promise((r) => setTimeout(r, 100));
  assert.match(output(), /^orderpay ready on /m);
  return {
    output,
    health: () => podman("healthcheck", "run", NAME),
    stop: () => (podman("stop", "-t", "10", NAME), Number(podman("inspect", NAME, "--format", "{{.State.ExitCode}}").stdout)),
    fails: (more) => podman("run", "--rm", ...words(process.env.ORDERPAY_PODMAN_RUN_FLAGS),
      ...Object.entries(more).flatMap(([k, v]) => ["-e", `${k}=${v}`]), NAME),
    remove: () => (podman("rm", "-f", NAME), podman("rmi", "-f", NAME)),
  };
}

/** Runs the doc's walkthrough against `port`: each command exits 0 and prints what its comment after → says. */
function walkthrough(port) {
  for (const line of commands(only(shellBlocks("container")))) {
    const [command, said] = line.split(/\s+# → /);
    const out = execFileSync("sh", ["-c", command.replace(/\blocalhost:4010\b/g, `127.0.0.1:${port}`)], { encoding: "utf8", timeout: 15_000 });
    assert.ok(out.includes(said.trim()), `${command}\nprinted ${out}\nnot ${said}`);
  }
}

test("the image serves as CI runs it: ready line, health check, curl walkthrough, Postman collection, webhook, stop", async () => {
  const port = await freePort();
  const token = runVariables().ORDERPAY_ADMIN_TOKEN;
  const env = {
    ...runVariables(),
    ORDERPAY_PORT: String(port),
    ORDERPAY_WEBHOOK: `http://127.0.0.1:${hooks.address().port}/hooks`,
    ORDERPAY_SCENARIO: '{"name":"written out","rules":[]}',
    ...(PODMAN ? {} : { ORDERPAY_STATE: AS_ROOT ? "/data/state.json" : join(tree, "data", "state.json") }),
  };
  const server = PODMAN ? await podmanServer(env) : await treeServer(env);
  try {
    const healthy = server.health();
    assert.equal(healthy.status, 0, `${healthy.stdout}${healthy.stderr}`);
    walkthrough(port);
    const newman = spawnSync(join(root, "tests", "postman", "node_modules", ".bin", "newman"),
      ["run", join(root, "docs", "orderpay.postman_collection.json"), "--env-var", `baseUrl=http://127.0.0.1:${port}`,
        "--env-var", `adminToken=${token}`, "--reporters", "cli", "--color", "off"], { encoding: "utf8" });
    assert.equal(newman.status, 0, `${newman.stdout}${newman.stderr}`);
    assert.match(newman.stdout, /│\s+assertions │\s+\d+ │\s+0 │/);
    for (let i = 0; i < 100 && received.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
    assert.ok(received.length > 0, "a webhook arrived");
    assert.match(received[0].headers["orderpay-signature"] ?? "", /^t=\d+,v1=[0-9a-f]{64}$/);
    const scenario = await fetch(`http://127.0.0.1:${port}/__orderpay/scenario`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal((await scenario.json()).data.scenario.document.name, "written out", "ORDERPAY_SCENARIO's document");
    // A bad variable stops a second start at once, naming the variable: the option's check, the service's, the scenario's.
    for (const [name, value, message] of [
      ["ORDERPAY_FAILURE_RATE", "2", 'expected a number from 0 to 1, got "2"'],
      ["ORDERPAY_SCENARIO", '{"rules":[{"then":{"kind":"nope"}}]}', "rules[0].then.kind: "],
      ["ORDERPAY_SCENARIO", "{rules", 'starts with "{" but is not JSON'],
    ]) {
      const bad = server.fails({ [name]: value });
      assert.equal(bad.status, 2, bad.stderr);
      // A line of its own: podman may say more around it.
      assert.ok(bad.stderr.split("\n").some((line) => line.startsWith(`orderpay: ${name}: ${message}`)), bad.stderr);
    }
  } catch (error) {
    await server.stop();
    server.remove?.();
    throw error;
  }
  try {
    assert.equal(await server.stop(), 0, server.output());
    assert.notEqual(server.health().status, 0, "unhealthy once stopped");
    if (!PODMAN) {
      const state = statSync(join(tree, "data", "state.json"));
      if (AS_ROOT) assert.deepEqual([state.uid, state.gid], [uid, gid], "written by the image's user");
    }
  } finally {
    server.remove?.();
  }
});
