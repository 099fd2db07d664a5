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

/** The copy-as server field's hint: the server this page shows, or where `npx orderpay serve` listens by default. */
export function copyTargetHint() {
  return gateway ? "(the server this page shows, as its other clients reach it)" : "(this service over HTTP: npx orderpay serve listens on port 4010)";
}

/** How a pending payment resolves on a wall clock: by the server, or by this page as it comes due. */
export function wallClockResolver() {
  return gateway ? "the server resolves it as it comes due, whether or not this page is open" : "this page resolves it as it comes due";
}

/** How a call's time was measured: in the tab, or as a round trip to the server. */
export function timeWhere() {
  return gateway ? "round trip to the server" : "in this tab";
}
