// The sessions in the admin API's OpenAPI document (admin-openapi.js): the
// list, one session read or ended, and every route of a session, written
// from the default session's operations so that each route added there is
// documented here too. The operations that act on a session also say the
// header that picks one, and the refusals a session can bring (a bad name,
// --max-sessions reached).
import { PREFIX } from "./admin.js";
import { SERVER_ROUTES } from "./session_name.js";

/** A session name: 1 to 64 of A-Z a-z 0-9 . _ -, but not "." or "..", without a lookahead. */
const NAME = "^([A-Za-z0-9_-][A-Za-z0-9._-]{0,63}|\\.[A-Za-z0-9_-][A-Za-z0-9._-]{0,62}|\\.\\.[A-Za-z0-9._-]{1,62})$";
const ref = (section, name) => ({ $ref: `#/components/${section}/${name}` });
const error = (description) => ({ description, content: { "application/json": { schema: ref("schemas", "ErrorEnvelope") } } });

const whole = { type: "integer", minimum: 0 };
const SUMMARY = {
  type: "object",
  required: ["name", "requests", "ordersCreated", "payments", "forced", "droppedLogs", "generation", "idleMs"],
  properties: {
    name: { type: "string", description: "The session's name; default for the default session" },
    requests: { ...whole, description: "Requests the session's service answered" },
    ordersCreated: whole,
    payments: {
      type: "object",
      required: ["attempts", "approved", "declined"],
      properties: { attempts: whole, approved: whole, declined: whole },
    },
    forced: ref("schemas", "Forced"),
    droppedLogs: whole,
    generation: { type: "integer", minimum: 1 },
    idleMs: { ...whole, description: "Time since its last request (0 for the default session, which never ends)" },
  },
};

const ok = (description, data) => ({
  description,
  content: {
    "application/json": {
      schema: { type: "object", required: ["code", "msg", "data"], properties: { code: { const: 0 }, msg: { const: "success" }, data } },
    },
  },
});

/** What every operation behind the token can answer (a route of admin-openapi.js's `guarded`). */
const GUARDED = { 401: ref("responses", "Unauthorized"), 403: ref("responses", "Forbidden"), 431: ref("responses", "HeadersTooLarge") };
const NAMED = { 400: ref("responses", "BadRequest"), 404: error("No session of that name"), ...GUARDED };

/** The list, and one session read or ended. */
function sessionPaths() {
  const name = ref("parameters", "SessionName");
  return {
    [`${PREFIX}/sessions`]: {
      get: {
        operationId: "sessions", summary: "The sessions", tags: ["sessions"],
        description: "Every session, the default first, with its counts, and the bounds (--max-sessions, --session-idle).",
        responses: {
          200: ok("The sessions", {
            type: "object",
            required: ["sessions", "count", "maxSessions", "sessionIdleMs"],
            properties: {
              sessions: { type: "array", items: ref("schemas", "SessionSummary") },
              count: { ...whole, description: "Named sessions, the default not counted" },
              maxSessions: whole,
              sessionIdleMs: { ...whole, description: "A named session unused this long ends; 0: never" },
            },
          }),
          ...GUARDED,
        },
      },
    },
    [`${PREFIX}/sessions/{session}`]: {
      get: {
        operationId: "session", parameters: [name], summary: "One session", tags: ["sessions"],
        description: "The session's counts; 404 when there is none (reading it does not make it).",
        responses: { 200: ok("The session", ref("schemas", "SessionSummary")), ...NAMED },
      },
      delete: {
        operationId: "endSession", parameters: [name], summary: "End a session", tags: ["sessions"],
        description: "Ends the session: its orders, log and saved file go. The default session cannot end (400): reset it instead.",
        responses: { 200: ok("Ended: what it held", ref("schemas", "SessionSummary")), ...NAMED },
      },
    },
  };
}

/** An operation of the default session that also takes the session header and can meet its refusals. */
function withSession(operation, parameter) {
  const responses = { ...operation.responses };
  responses[400] ??= ref("responses", "BadRequest");
  responses[503] ??= ref("responses", "SessionsFull");
  return { ...operation, parameters: [...(operation.parameters ?? []), parameter], responses };
}

/**
 * Adds the sessions to `doc`, the admin API's document: the header on each
 * operation that acts on a session, the same operation under
 * /__orderpay/sessions/{session}/, the list and one session.
 */
export function addSessions(doc) {
  const copies = {};
  for (const [path, item] of Object.entries(doc.paths)) {
    const sub = path.slice(PREFIX.length);
    if (SERVER_ROUTES.has(sub)) continue;
    const copy = {};
    for (const [method, operation] of Object.entries(item)) {
      item[method] = withSession(operation, ref("parameters", "Session"));
      const id = operation.operationId;
      copy[method] = {
        ...withSession(operation, ref("parameters", "SessionName")),
        operationId: `session${id[0].toUpperCase()}${id.slice(1)}`,
        summary: `${operation.summary}, of one session`,
      };
    }
    copies[`${PREFIX}/sessions/{session}${sub}`] = copy;
  }
  Object.assign(doc.paths, copies, sessionPaths());
  doc.info.description +=
    " Each session (X-Orderpay-Session, the /s/NAME/ prefix, or the orderpay-session cookie) is a service of its own; " +
    "an operation without /sessions/{session}/ acts on the session the request names, else on the default one.";
  doc.tags.push({ name: "sessions", description: "The sessions: each its own service, for parallel test workers on one server" });
  doc.components.schemas.SessionSummary = SUMMARY;
  doc.components.responses.SessionsFull = error("A new session past --max-sessions: msg names the session and the option");
  const pattern = { type: "string", pattern: NAME, minLength: 1, maxLength: 64 };
  doc.components.parameters = {
    ...doc.components.parameters,
    Session: {
      name: "X-Orderpay-Session", in: "header", required: false, schema: pattern,
      description: "The session acted on (made on first use); without it, the one of the /s/NAME/ prefix or the orderpay-session cookie, else the default",
    },
    SessionName: { name: "session", in: "path", required: true, schema: pattern, description: "The session's name (default: the default session)" },
  };
  return doc;
}
