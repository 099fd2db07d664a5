// --ready-file FILE: how a script learns where the server listens (the
// port --port 0 picked) and that it is ready. The file appears whole, by
// a rename, only once the server is listening, and goes at the stop.
import { renameSync, rmSync, writeFileSync } from "node:fs";

/** Removes what a previous run left, so that the file appears only once this one listens. */
export function clearReadyFile(file) {
  rmSync(file, { force: true });
}

/**
 * Writes `{url, port, host, base, api, admin, pid}` to `file` (through a
 * temporary file renamed over it), and removes it when the process exits.
 */
export function writeReadyFile(file, { url, port, host, base }) {
  const ready = {
    url,
    port,
    host,
    base: base || "/",
    api: `${url}${base}/api`,
    admin: `${url}/__orderpay`,
    pid: process.pid,
  };
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify(ready) + "\n");
  renameSync(temporary, file);
  process.on("exit", () => clearReadyFile(file));
  return ready;
}
