// Loaded into `orderpay serve` by tests/server/scripts.test.mjs (through
// `node --import`), never by the package: it does what a script may do the
// moment the ready file appears, at that very moment, so that what the
// server has in place by then is held without a race. ORDERPAY_AT_READY:
// "sigterm" (the server is sent SIGTERM) or "kill-parent" (the process that
// started it is killed, and gone, before the server goes on); it acts on
// the file named by ORDERPAY_READY_FILE.
import fs from "node:fs";
import { syncBuiltinESMExports } from "node:module";

const { ORDERPAY_AT_READY: action, ORDERPAY_READY_FILE: file } = process.env;
const pause = new Int32Array(new SharedArrayBuffer(4));

const rename = fs.renameSync;
fs.renameSync = (from, to) => {
  rename(from, to);
  if (to !== file) return;
  if (action === "sigterm") process.kill(process.pid, "SIGTERM");
  if (action === "kill-parent") {
    const parent = process.ppid;
    process.kill(parent, "SIGKILL");
    // Until the kernel has given this process another parent (at most 30 s).
    for (let i = 0; i < 3000 && process.ppid === parent; i++) Atomics.wait(pause, 0, 0, 10);
  }
};
syncBuiltinESMExports();
