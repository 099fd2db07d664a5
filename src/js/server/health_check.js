// `orderpay health`: asks a running server's GET /__orderpay/health, for a
// container's HEALTHCHECK, where there is no curl: the image's own Node
// and this file are all it needs. Exit code 0 when the server answers 200
// with status "ok", else 1 and one line saying what it got instead.
const TIMEOUT_MS = 3000;

/** The address to ask on: a server listening on every interface (0.0.0.0, ::) is asked on loopback. */
export function askedHost(host) {
  if (host === "0.0.0.0") return "127.0.0.1";
  if (host === "::" || host === "[::]") return "[::1]";
  return host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
}

/** Asks the server at `port` and `host`; resolves to the exit code. */
export async function healthCheck({ port, host }) {
  const url = `http://${askedHost(host)}:${port}/__orderpay/health`;
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS) });
    const body = await res.json().catch(() => null);
    if (res.status === 200 && body?.data?.status === "ok") {
      console.log(`orderpay: healthy (${url})`);
      return 0;
    }
    console.error(`orderpay: unhealthy: ${url} answered ${res.status}${body?.msg ? ` (${body.msg})` : ""}`);
  } catch (error) {
    const why = error.name === "TimeoutError" ? `no answer within ${TIMEOUT_MS} ms` : (error.cause?.code ?? error.cause?.message ?? error.message);
    console.error(`orderpay: unhealthy: ${url}: ${why}`);
  }
  return 1;
}
