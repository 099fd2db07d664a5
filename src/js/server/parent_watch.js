// --exit-with-parent: stop when the process that started the server exits.
// `npx orderpay serve` runs it as npx -> sh -c -> node; npx passes SIGTERM
// and SIGINT to the shell only, which dies and leaves the server to init.
// The server then sees its parent change, and stops as on a signal.
//
// The parent is read as this module loads, which cli.js imports before
// anything else: read later (once the server is ready, say), a parent
// killed in between would already have left the server to init, and the
// server would take init for its parent and never stop.

/** How often the parent is looked at, in ms. */
const EVERY_MS = 250;

/** The process that started this one, as it was when the process started. */
export const PARENT_AT_START = process.ppid;

/**
 * Calls `stop()` once the parent process is no longer the one the process
 * started with (gone before this call counts too: it is seen at the first look).
 */
export function watchParent(stop) {
  const timer = setInterval(() => {
    if (process.ppid === PARENT_AT_START) return;
    clearInterval(timer);
    stop();
  }, EVERY_MS);
  timer.unref();
  return timer;
}
