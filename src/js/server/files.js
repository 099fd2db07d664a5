// Static files: the playground at / and the package itself at /pkg/, and
// nothing else on the disk. A path is decoded once, refused with 400 when
// it carries NUL, a backslash or a dot segment, and the file it names must
// lie inside its root once symbolic links are followed. An HTML page gets
// `head` (a server's marker, such as the live playground's) before its
// </head>, so the page knows where it came from without asking.
import { open, realpath } from "node:fs/promises";
import { extname, join, resolve, sep } from "node:path";

import { sendError } from "./reply.js";

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".wasm": "application/wasm",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ts": "text/plain; charset=utf-8",
  ".md": "text/markdown; charset=utf-8",
};

/** The live playground's marker: the page reads it and follows this server (www/remote.js). */
export const LIVE_MARKER = '<meta name="orderpay-live" content="">';

/** `roots`: [urlPrefix, directory] pairs, the longest prefix first; `head`: markup added to each HTML page's head. */
export class StaticFiles {
  constructor(roots, { head = "" } = {}) {
    this.head = head;
    this.roots = roots
      .filter(([, dir]) => dir)
      .map(([prefix, dir]) => [prefix, resolve(dir)])
      .sort((a, b) => b[0].length - a[0].length);
    this.real = new Map();
  }

  /** The checked path, or [status, msg] when the path is refused. */
  static check(rawPath) {
    if (!rawPath.startsWith("/")) return [400, "path: must start with /"];
    if (/%00|\0/i.test(rawPath)) return [400, "path: NUL bytes are refused"];
    let decoded;
    try {
      decoded = decodeURIComponent(rawPath);
    } catch {
      return [400, "path: not valid percent-encoding"];
    }
    if (decoded.includes("\\")) return [400, "path: backslashes are refused"];
    if (decoded.split("/").some((s) => s === "." || s === "..")) return [400, "path: dot segments are refused"];
    return decoded;
  }

  /** Answers GET and HEAD with the file, 400 for a refused path, 404 for anything else. */
  async serve(req, res, rawPath) {
    const path = StaticFiles.check(rawPath);
    if (Array.isArray(path)) return sendError(res, path[0], path[1]);
    const file = await this.#find(path);
    if (!file) return sendError(res, 404, `No file at ${path}`);
    const page = this.head && extname(file.path) === ".html" ? await withHead(file, this.head) : null;
    const headers = {
      "content-type": TYPES[extname(file.path)] ?? "application/octet-stream",
      "content-length": page?.length ?? file.size,
      "cache-control": "no-cache",
      "x-content-type-options": "nosniff",
    };
    // The package's Service Worker may control pages outside /pkg/.
    if (path.startsWith("/pkg/") && file.path.endsWith(".js")) headers["service-worker-allowed"] = "/";
    res.writeHead(200, headers);
    if (page) return res.end(req.method === "HEAD" ? undefined : page);
    if (req.method === "HEAD") {
      await file.handle.close();
      return res.end();
    }
    const stream = file.handle.createReadStream();
    stream.pipe(res);
    stream.on("error", () => res.destroy());
  }

  async #find(path) {
    for (const [prefix, dir] of this.roots) {
      const inside = prefix === "/" ? path : path.startsWith(prefix) ? path.slice(prefix.length - 1) : null;
      if (inside === null) continue;
      let file = resolve(dir, "." + inside);
      if (file !== dir && !file.startsWith(dir + sep)) return null;
      if (inside.endsWith("/")) file = join(file, "index.html");
      try {
        const real = await realpath(file);
        const realDir = await this.#realRoot(dir);
        if (!real.startsWith(realDir + sep)) return null;
        const handle = await open(real, "r");
        const info = await handle.stat();
        if (!info.isFile()) {
          await handle.close();
          return null;
        }
        return { handle, path: real, size: info.size };
      } catch {
        return null;
      }
    }
    return null;
  }

  async #realRoot(dir) {
    if (!this.real.has(dir)) this.real.set(dir, await realpath(dir));
    return this.real.get(dir);
  }
}

/** The page's bytes with `head` before its </head> (or first, when it has none); the file is closed. */
async function withHead(file, head) {
  try {
    const text = (await file.handle.readFile()).toString("utf8");
    const at = text.search(/<\/head\s*>/i);
    return Buffer.from(at < 0 ? head + text : text.slice(0, at) + head + text.slice(at));
  } finally {
    await file.handle.close();
  }
}
