// A static server for the playground: www/ at /, the built package at
// /pkg/. Loopback only. Run: node .ci/server.mjs [port]; 0 picks a free port.
import { createServer } from "node:http";
import { readFile, stat } from "node:fs/promises";
import { extname, join, normalize } from "node:path";

const root = new URL("..", import.meta.url).pathname;
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
};

function fileFor(urlPath) {
  const path = normalize(decodeURIComponent(urlPath)).replace(/^(\.\.[/\\])+/, "");
  if (path.startsWith("/pkg/")) return join(root, "pkg", path.slice("/pkg/".length));
  return join(root, "www", path.endsWith("/") ? path + "index.html" : path);
}

export function serve(port = 8080, host = "127.0.0.1") {
  const server = createServer(async (req, res) => {
    try {
      const file = fileFor(new URL(req.url, "http://x").pathname);
      if (!(await stat(file)).isFile()) throw new Error("not a file");
      const headers = {
        "content-type": TYPES[extname(file)] ?? "application/octet-stream",
        "cache-control": "no-cache",
      };
      // The package's Service Worker (/pkg/worker.js) may control pages
      // outside /pkg/, such as /sw-demo/.
      if (file.startsWith(join(root, "pkg") + "/") && file.endsWith(".js")) headers["service-worker-allowed"] = "/";
      res.writeHead(200, headers);
      res.end(await readFile(file));
    } catch {
      res.writeHead(404, { "content-type": "text/plain" });
      res.end("not found");
    }
  });
  return new Promise((resolve) => server.listen(port, host, () => resolve(server)));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const server = await serve(Number(process.argv[2] ?? 8080));
  console.log(`orderpay playground: http://localhost:${server.address().port}/`);
}
