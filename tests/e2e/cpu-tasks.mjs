// The project's rule for long tasks on a busy machine: a task of the page's
// main thread counts by the CPU time it used (a Chromium trace's thread
// time), not by the wall clock, which other processes on a 2-core machine
// stretch. Shared by the end-to-end tests and the benchmarks.
import assert from "node:assert/strict";

/** A task of 50 ms or more of CPU time is a long task (the Long Tasks API's bound, on CPU time). */
export const LONG_MS = 50;

/**
 * Runs `act` under a Chromium performance trace; returns its result, the tasks of the page's main
 * thread (`{ start, end, wall, cpu }`, in ms, `start` and `end` on the trace's clock) and the page's
 * `performance.measure()` entries on the same clock (`{ name, start, end }`). `least`: the fewest
 * tasks the trace must hold to be taken for one of the page at all (a step of 0.1 s runs about 60).
 */
export async function traceOfTasks(page, act, { least = 100 } = {}) {
  const cdp = await page.context().newCDPSession(page);
  const events = [];
  cdp.on("Tracing.dataCollected", (e) => events.push(...e.value));
  await cdp.send("Tracing.start", { traceConfig: { includedCategories: ["toplevel", "blink.user_timing"] }, transferMode: "ReportEvents" });
  let result;
  try {
    result = await act();
  } finally {
    const complete = new Promise((resolve) => cdp.once("Tracing.tracingComplete", resolve));
    await cdp.send("Tracing.end");
    await complete;
    await cdp.detach();
  }
  const mains = new Set(events.filter((e) => e.name === "thread_name" && e.args?.name === "CrRendererMain").map((e) => `${e.pid}:${e.tid}`));
  const runs = events.filter((e) => e.ph === "X" && e.name === "ThreadControllerImpl::RunTask" && mains.has(`${e.pid}:${e.tid}`));
  // Some tasks come without a thread time (those that had not ended when the trace began or stopped,
  // among others: 34 of 563 in one run, 404 of 1,243 in another). Such a task counts with its
  // wall-clock time, which its CPU time cannot exceed, so it can only make the rule stricter: how many
  // have a thread time does not matter, only that the trace holds the page's tasks at all.
  assert.ok(runs.length > least, `the trace holds the main thread's tasks: ${runs.length}`);
  const tasks = runs.map((e) => ({ start: e.ts / 1000, end: (e.ts + e.dur) / 1000, wall: e.dur / 1000, cpu: (e.tdur ?? e.dur) / 1000 }));
  return { result, tasks, measures: measuresOf(events) };
}

/** The user timing measures of a trace: each a begin and an end event of one name and id. */
function measuresOf(events) {
  const open = new Map();
  const measures = [];
  for (const e of events.filter((e) => e.cat?.includes("blink.user_timing") && (e.ph === "b" || e.ph === "e"))) {
    const key = `${e.name}:${e.id ?? e.id2?.local ?? e.id2?.global ?? ""}`;
    if (e.ph === "b") open.set(key, e.ts);
    else if (open.has(key)) {
      measures.push({ name: e.name, start: open.get(key) / 1000, end: e.ts / 1000 });
      open.delete(key);
    }
  }
  return measures;
}

/**
 * The long tasks of a trace by CPU time, split in two: the page's own (their CPU times, ms), and
 * those holding one of the measures named in `calls` (the service's calls the page cannot cut):
 * `{ cpu, call, callMs, beside }`, where `beside` is the page's own CPU time in the task beside the
 * call: its wall-clock time outside the call, scaled by the task's share of a core (its CPU time
 * over its wall-clock time), as the waits for a core stretch both alike.
 */
export function longTasks({ tasks, measures }, calls = []) {
  const held = measures.filter((m) => calls.includes(m.name));
  const own = [];
  const service = [];
  for (const task of tasks.filter((t) => t.cpu >= LONG_MS)) {
    const call = held.find((m) => m.start >= task.start && m.end <= task.end + 1);
    if (!call) own.push(Math.round(task.cpu));
    else {
      const share = task.wall > 0 ? task.cpu / task.wall : 1;
      service.push({ cpu: Math.round(task.cpu), call: call.name, callMs: Math.round(call.end - call.start), beside: Math.round((task.wall - (call.end - call.start)) * share) });
    }
  }
  return { own, service };
}

/**
 * Runs `act` under a Chromium performance trace and returns its result and the CPU time (ms) of each
 * task of the page's main thread that used 50 ms or more of it (the trace's thread time: the page's
 * own work, garbage collection included, without the waits for a core the other processes hold).
 */
export async function cpuOfTasks(page, act) {
  const { result, tasks } = await traceOfTasks(page, act);
  const cpu = tasks.map((t) => t.cpu);
  // Not Math.max(...cpu): a long run's trace has more tasks than a call takes arguments.
  const longest = Math.round(cpu.reduce((a, t) => Math.max(a, t), 0));
  return { result, longest, cpu: cpu.filter((t) => t >= LONG_MS).map((t) => Math.round(t)) };
}
