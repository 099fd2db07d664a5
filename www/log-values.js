// The values the core writes in the log's enumerated fields (a record's
// stage, its path group, its event class, its status), offered by the
// log's filters before any record shows them. tests/node/copies.test.mjs
// holds this copy to the core's source (src/observe, src/domain/route_table.rs).
// No imports: that test reads it in Node.

/** Field → its values, in the order the filters offer them. */
export const KNOWN_VALUES = Object.freeze({
  uri_group: ["/order/*", "/payment/*", "/test/*"],
  event_class: ["order", "payment", "test"],
  status: ["success", "server_error", "client_error"],
  stage: ["gateway", "service", "response", "payment", "webhook"],
});
