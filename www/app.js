// The playground: loads the package (the same one npm users install), the
// state saved in this browser, and mounts each part of the page on one store.
import { $, fill, h } from "./dom.js";
import { Store } from "./store.js";
import { mountFlow } from "./flow.js";
import { mountConsole } from "./console.js";
import { mountTestData } from "./testdata.js";
import { mountLogs } from "./logs.js";
import { mountRequests } from "./requests.js";
import { mountCharts } from "./charts.js";
import { mountSettings } from "./settings.js";
import { mountCopyTest } from "./copy-test.js";
import { mountSimulation } from "./simulation.js";
import { mountAsyncPayments } from "./async-payments.js";
import { mountFailures } from "./failures.js";
import { mountWebhooks } from "./webhooks.js";
import { mountUndo } from "./undo.js";
import { mountTabBar } from "./tabbar.js";
import { mountIdHighlight } from "./ids.js";
import { breather } from "./slices.js";

// On a phone the primer starts closed, so the flow's button is in sight at once.
if (matchMedia("(max-width: 600px)").matches) $(".primer").open = false;

const store = new Store();
try {
  const notice = await store.start((text) => { $("#notice").textContent = text; });
  if (notice) $("#notice").textContent = notice;
  // Live, the service is the server's: the page's introduction says so rather than "in this tab".
  if (store.remote) $(".lead").textContent = "An order and payment service of orderpay serve, the same npm package your app would install, running as a server: this page shows its state and sends it requests, as any client of it would.";
  // And "How this page works" says who keeps the state: the server, not this browser.
  if (store.remote) fill($("#help-saved"), h("strong", null, "Kept by the server."), " The state is the server's: it keeps it for as long as it runs (with --state, in its file across restarts), and this page stores none of it in this browser. The exported file is the server's snapshot as is, so ", h("code", null, "Service.restore(text)"), " reads it in Node too; the log export is NDJSON, one record a line.");
  const undoable = mountUndo(store);
  mountTabBar(store);
  mountSettings(store, undoable);
  mountCopyTest(store);
  mountFlow(store);
  mountConsole(store);
  mountSimulation(store);
  mountAsyncPayments(store);
  mountFailures(store);
  mountWebhooks(store);
  mountTestData(store);
  // Each part that draws the whole state (a loaded one may hold 100,000 orders) in a task of its own.
  await breather();
  mountRequests(store);
  mountIdHighlight();
  await breather();
  mountLogs(store, undoable);
  await breather();
  mountCharts(store);
  // A state just read back from this browser is saved already: writing it again would be a long save for nothing.
  if (store.saved.state !== "saved") store.scheduleSave();
  document.body.dataset.ready = "true";
} catch (e) {
  $("#notice").dataset.kind = "error";
  $("#notice").textContent = `The playground could not start: ${e.message}. Is the package built? Run npm start.`;
  throw e;
}
