// The project's rule for long tasks on a busy machine: a task of the page's
// main thread counts by the CPU time it used (a Chromium trace's thread
// time), not by the wall clock, which other processes on a 2-core machine
// stretch. Shared by the end-to-end tests and the benchmarks.
import assert from "node:assert/strict";

/**
 * Runs `act` under a Chromium performance trace and returns its result and the CPU time (ms) of each
 * task of the page's main thread that used 50 ms or more of it (the trace's thread time: the page's
 * own work, garbage collection included, without the waits for a core the other processes hold).
 */
export async function cpuOfTasks(page, act) {
  const cdp = await page.context().newCDPSession(page);
  const events = [];
  cdp.on("Tracing.dataCollected", (e) => events.push(...e.value));
  await cdp.send("Tracing.start", { traceConfig: { includedCategories: ["toplevel"] }, transferMode: "ReportEvents" });
  const result = await act();
  const complete = new Promise((resolve) => cdp.once("Tracing.tracingComplete", resolve));
  await cdp.send("Tracing.end");
  await complete;
  await cdp.detach();
  const mains = new Set(events.filter((e) => e.name === "thread_name" && e.args?.name === "CrRendererMain").map((e) => `${e.pid}:${e.tid}`));
  const tasks = events.filter((e) => e.ph === "X" && e.name === "ThreadControllerImpl::RunTask" && mains.has(`${e.pid}:${e.tid}`));
  // Some tasks come without a thread time (those that had not ended when the trace began or stopped,
  // among others: 34 of 563 in one run, 404 of 1,243 in another). Such a task counts with its
  // wall-clock time, which its CPU time cannot exceed, so it can only make the rule stricter: how many
  // have a thread time does not matter, only that the trace holds the page's tasks at all.
  assert.ok(tasks.length > 100, `the trace holds the main thread's tasks: ${tasks.length}`);
  const cpu = tasks.map((e) => e.tdur ?? e.dur);
  // Not Math.max(...cpu): a long run's trace has more tasks than a call takes arguments.
  const longest = Math.round(cpu.reduce((a, t) => Math.max(a, t), 0) / 1000);
  return { result, longest, cpu: cpu.filter((t) => t >= 50_000).map((t) => Math.round(t / 1000)) };
}
