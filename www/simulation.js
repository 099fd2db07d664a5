// The Simulation panel: force the next payment attempts to fail or succeed
// (the service's forceNext), see what is still pending (its `forced`), clear
// it, and read the model in use (`service.settings`). A pending forceNext is
// part of the snapshot, so it survives a reload with the rest of the state.
import { $, fieldError, fill, h } from "./dom.js";

const STEPS = [
  ["order", "order service"],
  ["payment", "payment service"],
  ["thirdParty", "third party (inside payment pay)"],
  ["test", "test-data endpoint, its own work"],
];

export function mountSimulation(store) {
  const status = $("#forced-status");
  const model = $("#sim-model");
  const message = $("#force-message");
  const say = (text, kind = "info") => {
    message.dataset.kind = kind;
    message.textContent = text;
  };
  $("#force-form").addEventListener("submit", (event) => forceNext(event, store, say));
  $("#force-clear").addEventListener("click", () => clearForced(store, say));
  store.addEventListener("change", (e) => {
    showForced(status, store.forced);
    if (e.detail.reset) showModel(model, store.settings);
    // What was forced is used up by requests: the status above tells what is left.
    if (e.detail.reset || e.detail.request) say("");
  });
  showForced(status, store.forced);
  showModel(model, store.settings);
}

/** The form's submit: forces the next attempts (a count of 0 clears), or says why not. */
async function forceNext(event, store, say) {
  event.preventDefault();
  const outcome = $("#force-outcome");
  const text = $("#force-count").value.trim();
  // The count goes to the service as a number; it checks it and names what is wrong.
  const n = text === "" ? 1 : Number(text);
  fieldError("force-count", "");
  try {
    await store.forceNext(outcome.value, n);
    say(n === 0 ? "Cleared: nothing is forced." : `Forced: ${attempts(n, outcome.value)}. Pay from the flow or the request console.`);
  } catch (e) {
    say(`Not forced: ${e.message}`, "error");
    fieldError("force-count", e.message);
  }
}

async function clearForced(store, say) {
  const had = store.forced;
  try {
    await store.forceNext("failure", 0);
  } catch (e) {
    say(`Not cleared: ${e.message}`, "error");
    return;
  }
  say(had ? `Cleared: the ${had.remaining} pending forced attempt${had.remaining === 1 ? " is" : "s are"} left to the draw again.` : "Nothing was forced.");
}

/** What is still forced, as `forced` (the service's) says, or that the draw decides. */
function showForced(status, forced) {
  status.dataset.pending = forced ? `${forced.outcome}:${forced.remaining}` : "";
  fill(status, ...(forced
    ? [h("strong", null, "Pending: "), `${attempts(forced.remaining, forced.outcome)}, whatever the draw. An X-Sim-Outcome header still decides its own request.`]
    : [h("strong", null, "Nothing forced: "), "the seeded draw against the failure rate decides each payment attempt."]));
}

/** The model in use: seed, failure rate, log capacity and each step's latency. */
function showModel(model, { seed, failureRate, logCapacity, latency }) {
  const rows = [
    ["seed", String(seed)],
    ["failure rate", `${failureRate}: a draw below it declines`],
    ["log capacity", `${logCapacity} records`],
  ];
  for (const [key, name] of STEPS) {
    const p = latency?.[key];
    if (p) rows.push([`${name}`, latencyText(p)]);
  }
  fill(model, ...rows.flatMap(([k, v]) => [h("dt", null, k), h("dd", null, v)]));
}

/** "60–240 ms, and 5% of the time up to 1200 ms more" */
function latencyText({ baseMs, spreadMs, tailChance, tailMs }) {
  const range = spreadMs ? `${baseMs}–${baseMs + spreadMs} ms` : `${baseMs} ms`;
  const tail = tailChance > 0 && tailMs > 0 ? `, and ${Number((tailChance * 100).toFixed(2))}% of the time up to ${tailMs} ms more` : "";
  return range + tail;
}

/** "the next payment attempt fails", "the next 3 payment attempts succeed" */
export function attempts(n, outcome) {
  const fail = outcome === "failure";
  return n === 1 ? `the next payment attempt ${fail ? "fails" : "succeeds"}` : `the next ${n} payment attempts ${fail ? "fail" : "succeed"}`;
}
