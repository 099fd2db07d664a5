// --exit-with-parent: stop when the process that started the server exits.
// `npx orderpay serve` runs it as npx -> sh -c -> node; npx passes SIGTERM
// and SIGINT to the shell only, which dies and leaves the server to init.
// The server then sees its parent change, and stops as on a signal.

/** How often the parent is looked at, in ms. */
const EVERY_MS = 250;

/** Calls `stop()` once the parent process is no longer the one it started with. */
export function watchParent(stop) {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    stop();
  }, EVERY_MS);
  timer.unref();
  return timer;
}
