// Whether this page shows an `orderpay serve` server's service (live mode)
// or its own, in the tab: the few words and addresses that differ (a copy
// as curl goes to that server; a time is a round trip to it; a request
// the page did not send came from another of its clients) read it here.
// remote.js sets it once it has found the server.

let gateway = null;

/** Notes the live server's gateway address: origin, the session's /s/NAME prefix, and the base path. */
export function setLiveGateway(url) {
  gateway = url;
}

/** The live server's gateway address, or null in the tab. */
export function liveGateway() {
  return gateway;
}

/** How a call's time was measured: in the tab, or as a round trip to the server. */
export function timeWhere() {
  return gateway ? "round trip to the server" : "in this tab";
}
