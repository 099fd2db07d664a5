// The container image's size and its time from start to ready: the file
// tree container/tree.sh lays out (what the Containerfile copies, FROM
// scratch), its size uncompressed and as a gzipped tar (about what a
// registry stores and a runner pulls), each part's share; then the
// Containerfile's ENTRYPOINT and CMD started in the tree RUNS times (as
// its user, chrooted, when run as root), timed from the spawn to the line
// `orderpay ready on URL`, and stopped. With podman on the PATH and
// --podman, the same for the image built with buildah and run by podman
// (CONTAINERS_CONF and CONTAINERS_STORAGE_CONF from tests/server/podman/ in a sandbox like CI's, or the flags ORDERPAY_PODMAN_FLAGS and ORDERPAY_PODMAN_RUN_FLAGS).
// Prints the figures; tests nothing.
//
// Run: node tests/bench/container.mjs [runs, default 10] [--podman]
// Needs the built package (pkg/) and tests/nodes (Node 24).
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const root = new URL("../..", import.meta.url).pathname;
const RUNS = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 10);
const PODMAN = process.argv.includes("--podman");
const words = (text) => (text ?? "").split(/\s+/).filter(Boolean);

const dir = mkdtempSync(join(tmpdir(), "orderpay-image-bench-"));
const tree = join(dir, "tree");
execFileSync("bash", [join(root, "container", "tree.sh"), tree], { stdio: ["ignore", "ignore", "inherit"] });

const file = readFileSync(join(root, "container", "Containerfile"), "utf8");
const json = (word) => JSON.parse(new RegExp(`^${word} (.*)$`, "m").exec(file)[1]);
const command = [...json("ENTRYPOINT"), ...json("CMD")];
const user = /^USER (.*)$/m.exec(file)[1];
const env = Object.fromEntries([.../^ENV (.*)$/m.exec(file)[1].matchAll(/(\w+)=(\S+)/g)].map((m) => [m[1], m[2]]));

const bytes = (path) => Number(execFileSync("du", ["-sb", path], { encoding: "utf8" }).split("\t")[0]);
const mb = (n) => `${(n / 1e6).toFixed(1)} MB`;
const gzipped = Number(execFileSync("sh", ["-c", `tar -C "${tree}" -cf - . | gzip -6 | wc -c`], { encoding: "utf8" }));
console.log(`image tree: ${mb(bytes(tree))} uncompressed, ${mb(gzipped)} as a gzipped tar`);
for (const part of ["usr/local/bin/node", "lib", "lib64", "opt/orderpay"]) console.log(`  ${part}: ${mb(bytes(join(tree, part)))}`);

/** Milliseconds from spawning `argv` to its ready line; then stops it. */
function timeToReady(argv, spawnEnv) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const proc = spawn(argv[0], argv.slice(1), { env: spawnEnv, stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    let ms;
    proc.stdout.on("data", (d) => {
      out += d;
      if (ms !== undefined || !/^orderpay ready on /m.test(out)) return;
      ms = Number(process.hrtime.bigint() - started) / 1e6;
      proc.kill("SIGTERM");
    });
    proc.once("exit", (code) => (ms !== undefined ? resolve(ms) : reject(new Error(`exited (${code}) before its ready line:\n${out}`))));
  });
}

/** The median and the range of `RUNS` measures. */
async function measure(what, run) {
  const times = [];
  for (let i = 0; i < RUNS; i++) times.push(await run());
  times.sort((a, b) => a - b);
  console.log(`${what}: median ${times[Math.floor(RUNS / 2)].toFixed(0)} ms (${times[0].toFixed(0)} to ${times.at(-1).toFixed(0)}) over ${RUNS} starts`);
}

const asRoot = process.getuid() === 0;
const inTree = asRoot ? ["chroot", `--userspec=${user}`, tree, ...command] : [join(tree, command[0]), join(tree, command[1]), ...command.slice(2)];
const path = { PATH: process.env.PATH };
await measure(`start to ready line, the tree${asRoot ? ` (chroot, user ${user})` : ""}`, () =>
  timeToReady(inTree, { ...path, ...env, ORDERPAY_PORT: "4099", ORDERPAY_HOST: "127.0.0.1" }));

if (PODMAN) {
  const flags = words(process.env.ORDERPAY_PODMAN_FLAGS);
  const name = `orderpay-bench-${process.pid}`;
  execFileSync("buildah", [...flags, "bud", "-q", "--format", "docker", "-t", name, "-f", join(root, "container", "Containerfile"), dir]);
  const size = spawnSync("podman", [...flags, "image", "inspect", name, "--format", "{{.Size}}"], { encoding: "utf8" }).stdout;
  console.log(`image (podman image inspect): ${mb(Number(size))} uncompressed`);
  await measure("podman run to ready line", () => timeToReady(["podman", ...flags, "run", "--rm", "--network", "host",
    ...words(process.env.ORDERPAY_PODMAN_RUN_FLAGS), "-e", "ORDERPAY_PORT=4099", name], process.env));
  spawnSync("podman", [...flags, "rmi", "-f", name]);
}
rmSync(dir, { recursive: true, force: true });
