// The OpenAPI 3.1 document of the admin API (/__orderpay/…), written from
// admin.js's table of routes: its paths and methods are the router's, its
// body limits and query patterns admin.js's constants; each route's
// operation (what it answers, its schemas) is here, by operationId.
// tests/server/admin-openapi.test.mjs holds it to the server's real routes
// (every route in it, every operation answering as it says), and
// tests/server/lint-openapi.sh lints it with Redocly and Spectral.
import { readFileSync } from "node:fs";

import { adminRoutes, PREFIX, SCENARIO_BODY, SEQ, SMALL_BODY, SNAPSHOT_BODY } from "./admin.js";
import { addSessions } from "./session_openapi.js";

/** A size in bytes as people say it: 64 KiB, 1 MiB. */
const kib = (bytes) => (bytes >= 1024 * 1024 ? `${bytes / (1024 * 1024)} MiB` : `${bytes / 1024} KiB`);
const ref = (section, name) => ({ $ref: `#/components/${section}/${name}` });
const json = (schema) => ({ "application/json": { schema } });
const text = (type, description) => ({ [type]: { schema: { type: "string", description } } });

/** The envelope of a successful answer around `data`. */
const envelope = (data) => ({
  type: "object",
  required: ["code", "msg", "data"],
  properties: { code: { const: 0 }, msg: { const: "success" }, data },
});
const ok = (description, data) => ({ description, content: json(envelope(data)) });
const whole = { type: "integer", minimum: 0 };
/** The clock as the core says it (admin.js's clockOf). */
const clockProperties = {
  now: { type: "integer", description: "The service's clock, Unix time in ms" },
  virtualClock: { type: "boolean", description: "Whether the clock is virtual (moves only with requests and advance); false on the wall clock" },
  nextDueAt: { type: ["integer", "null"], description: "When the soonest change of a payment is due (a pending payment, a challenge answering itself, a reversal), Unix time in ms; null when none is" },
};
const generation = { type: "integer", minimum: 1, description: "How many times reset or a restore swapped the service, from 1" };
/** A trace id as the core gives and reads it (observe/ids.rs): 16 or 32 lower-case hex digits, not all zeros. */
const TRACE_ID = "^(?!0+$)[0-9a-f]{16}([0-9a-f]{16})?$";

/**
 * A scenario document's schema: the package's own (scenario.schema.json,
 * which tests/node/scenario-schema.test.mjs holds to the core's reading),
 * its $defs kept under this component.
 */
function scenarioDocument() {
  const text = readFileSync(new URL("../scenario.schema.json", import.meta.url), "utf8");
  // eslint-disable-next-line no-unused-vars
  const { $schema, $id, title, ...schema } = JSON.parse(text.replaceAll('"#/$defs/', '"#/components/schemas/ScenarioDocument/$defs/'));
  return schema;
}

const schemas = {
  ErrorEnvelope: {
    type: "object",
    required: ["code", "msg", "data"],
    properties: {
      code: { type: "integer", description: "The HTTP status" },
      msg: { type: "string", description: "Names the field and the problem" },
      data: { type: "null" },
    },
  },
  LogRecord: {
    type: "object",
    description: "A gateway, service, response, payment or webhook record: the JS API's LogRecord (orderpay.d.ts)",
    required: ["seq", "timestamp", "traceId", "spanId", "parentSpanId", "stage"],
    properties: {
      seq: { type: "integer", minimum: 1, description: "Position in the log, from 1; gaps show dropped records" },
      timestamp: { type: "integer", description: "Unix time in ms" },
      traceId: { type: "string", pattern: TRACE_ID },
      spanId: { type: "string" },
      parentSpanId: { type: ["string", "null"] },
      stage: { enum: ["gateway", "service", "response", "payment", "webhook"] },
    },
  },
  Span: {
    type: "object",
    description: "A span of a trace: the JS API's Span (orderpay.d.ts)",
    required: ["traceId", "spanId", "parentSpanId", "name", "component", "start", "end", "status", "attributes"],
    properties: {
      traceId: { type: "string", pattern: TRACE_ID },
      spanId: { type: "string" },
      parentSpanId: { type: ["string", "null"] },
      name: { type: "string" },
      component: { enum: ["gateway", "order-service", "payment-service", "third-party", "test-data", "webhook"] },
      start: { type: "number" },
      end: { type: "number" },
      status: { enum: ["success", "server_error", "client_error"] },
      attributes: {
        type: "array",
        description: "[name, value] pairs",
        items: {
          type: "array",
          prefixItems: [{ type: "string" }],
          items: { type: ["string", "number", "boolean"] },
          minItems: 2,
          maxItems: 2,
        },
      },
    },
  },
  Settings: {
    type: "object",
    description: "The settings in force: the JS API's ServiceSettings (orderpay.d.ts)",
    required: ["seed", "failureRate", "logCapacity", "latency"],
    properties: {
      seed: whole,
      failureRate: { type: "number", minimum: 0, maximum: 1 },
      logCapacity: { type: "integer", minimum: 0 },
      maxOrders: { type: "integer", minimum: 0 },
      idempotencyKeys: { type: "integer", minimum: 0, description: "Shown only when set to other than its default, 10000" },
      latency: { type: "object" },
    },
  },
  Forced: {
    description: "What forceNext still has to do, or null",
    oneOf: [
      {
        type: "object",
        required: ["outcome", "remaining"],
        properties: { outcome: { enum: ["success", "failure"] }, remaining: { type: "integer", minimum: 1 } },
      },
      { type: "null" },
    ],
  },
  // The bounds are the core's (src/wasm/options.rs, src/sim/settings.rs): written
  // here for the document's readers, and held to the core by admin-openapi.test.mjs.
  ServiceOptions: {
    type: "object",
    description: "Options of `new Service` (orderpay.d.ts); unknown names are refused",
    properties: {
      seed: { type: "integer", minimum: 0, maximum: 9007199254740991 },
      failureRate: { type: "number", minimum: 0, maximum: 1 },
      logCapacity: { type: "integer", minimum: 0, maximum: 1000000 },
      maxOrders: { type: "integer", minimum: 0, maximum: 9007199254740991 },
      idempotencyKeys: {
        type: "integer",
        minimum: 0,
        maximum: 1000000,
        description: "Most Idempotency-Keys kept at once, each for 24 hours of the service's clock; a new one past it is a 507. Default 10000",
      },
      virtualTime: { type: "integer", description: "Start a virtual clock at this Unix time (ms)" },
      latency: { type: "object", description: "Overrides of the latency model: order, payment, thirdParty, test" },
      scenario: {
        description: "A failure scenario: a document, or a preset's name (PUT /scenario takes the same)",
        oneOf: [ref("schemas", "ScenarioDocument"), { type: "string" }],
      },
    },
    additionalProperties: false,
  },
  ScenarioDocument: scenarioDocument(),
  ScenarioState: {
    description: "The scenario in force, when it was set, and each rule's progress; null when none",
    oneOf: [
      {
        type: "object",
        required: ["document", "setAt", "rules"],
        properties: {
          document: ref("schemas", "ScenarioDocument"),
          setAt: { type: "integer", description: "The service's clock when it was set, Unix time in ms" },
          rules: {
            type: "array",
            items: {
              type: "object",
              required: ["name", "seen", "fired"],
              properties: { name: { type: "string" }, seen: whole, fired: whole },
            },
          },
        },
      },
      { type: "null" },
    ],
  },
  Payment: {
    type: "object",
    description:
      "A payment, as GET /api/payment/{paymentId} answers it: the JS API's Payment (orderpay.d.ts). nextAction only when REQUIRES_ACTION, " +
      "failureCode and failureReason only when FAILED",
    required: ["paymentId", "orderId", "amount", "status", "paymentMethod", "paidAt"],
    properties: {
      paymentId: { type: "string" },
      orderId: { type: "string" },
      amount: { type: "number" },
      status: { enum: ["SUCCESS", "REFUNDED", "REQUIRES_ACTION", "PENDING", "FAILED"] },
      paymentMethod: { type: "string" },
      paidAt: { type: "integer" },
      nextAction: {
        type: "object",
        required: ["type", "url"],
        properties: {
          type: { const: "redirect" },
          url: { type: "string", description: "The challenge page, a path relative to the gateway's base URL" },
        },
      },
      failureCode: { type: "string" },
      failureReason: { type: "string" },
    },
  },
  WebhookEndpoint: {
    type: "object",
    description: "A webhook endpoint: the JS API's WebhookEndpoint (orderpay.d.ts); deliveries in GET /webhooks",
    required: ["id", "secret", "events"],
    properties: {
      id: { type: "string", description: "we_<n>" },
      url: { type: "string", description: "Where events are POSTed; absent for an in-process handler" },
      handler: { const: true, description: "An in-process handler (given in JS)" },
      secret: { type: "string", description: "The signing secret (whsec_…)" },
      events: { type: "array", items: { type: "string" }, description: "The event types sent, or [\"*\"]" },
      header: { enum: ["Orderpay-Signature", "Stripe-Signature"] },
      deliveries: { type: "array", items: ref("schemas", "WebhookDelivery") },
    },
  },
  WebhookDelivery: {
    type: "object",
    description: "One event's delivery to one endpoint: the JS API's WebhookDelivery",
    required: ["id", "event", "endpoint", "state", "attempts", "nextAttemptAt"],
    properties: {
      id: { type: "string", description: "wd_<n>" },
      event: { type: "string", description: "The event's id, evt_…" },
      endpoint: { type: "string" },
      state: { enum: ["pending", "in_flight", "delivered", "failed"] },
      attempts: {
        type: "array",
        items: {
          type: "object",
          required: ["n", "at", "durationMs"],
          properties: {
            n: { type: "integer", minimum: 1 },
            at: { type: "integer", description: "When it was due on the service's clock, Unix time in ms" },
            status: { type: "integer", description: "The receiver's HTTP status; absent when none came" },
            error: { type: "string", description: "Why no status came: a timeout, a refused connection, a drop" },
            durationMs: { type: "number", minimum: 0 },
            fault: { type: "object", required: ["rule", "kind"], properties: { rule: { type: "string" }, kind: { type: "string" } } },
          },
        },
      },
      nextAttemptAt: { type: ["integer", "null"], description: "When the next attempt is due, Unix time in ms; null when none will be" },
    },
  },
  WebhookEvent: {
    type: "object",
    description: "A state change, Stripe-shaped: its JSON text is a delivery's body (the JS API's WebhookEvent)",
    required: ["id", "object", "type", "created", "createdAt", "traceId", "data"],
    properties: {
      id: { type: "string", description: "evt_…" },
      object: { const: "event" },
      type: {
        enum: ["order.created", "order.paid", "order.deleted", "payment.succeeded", "payment.failed", "payment.requires_action", "payment.pending", "payment.refunded"],
      },
      created: { type: "integer", description: "Unix time in s" },
      createdAt: { type: "integer", description: "Unix time in ms" },
      traceId: { type: "string", pattern: TRACE_ID },
      data: { type: "object", required: ["object"], properties: { object: { type: "object", description: "The order or payment as GET shows it" } } },
    },
  },
  OpenApiDocument: {
    type: "object",
    description: "An OpenAPI 3.1 document",
    required: ["openapi", "info", "paths"],
    properties: { openapi: { const: "3.1.0" }, info: { type: "object" }, paths: { type: "object" } },
  },
  Snapshot: {
    type: "object",
    description: "The whole state: settings, random streams, orders, payments, log, spans, clock, forceNext",
    required: ["format", "settings", "streams", "orders", "payments", "journal"],
    properties: {
      format: { type: "integer", minimum: 1 },
      settings: { type: "object" },
      streams: { type: "object" },
      orders: { type: "object" },
      payments: { type: "object" },
      journal: { type: "object" },
    },
  },
};

const responses = {
  BadRequest: { description: "A malformed request: msg names the field and the problem; nothing changed", content: json(ref("schemas", "ErrorEnvelope")) },
  Unauthorized: {
    description: "No admin token, or a wrong one, where the server asks for it (--admin-token, or --host beyond loopback)",
    headers: { "www-authenticate": { description: "Bearer, the scheme asked for", schema: { type: "string" } } },
    content: json(ref("schemas", "ErrorEnvelope")),
  },
  Forbidden: {
    description: "A page of another origin (Origin, Sec-Fetch-Site), or, on loopback, a Host that is not a loopback name",
    content: json(ref("schemas", "ErrorEnvelope")),
  },
  TooLarge: {
    description: `A body over what the route takes (${kib(SMALL_BODY)}, a scenario ${kib(SCENARIO_BODY)}, a snapshot ${kib(SNAPSHOT_BODY)})`,
    content: json(ref("schemas", "ErrorEnvelope")),
  },
  HeadersTooLarge: { description: "Headers over the 80 KiB the server reads", content: json(ref("schemas", "ErrorEnvelope")) },
};

const after = {
  name: "after",
  in: "query",
  required: false,
  description: "Only the records with a larger seq",
  schema: { type: "string", pattern: SEQ.source },
};

/** The refusals a route can give besides its own answer: any route, one behind the token, one that reads a query, one with a body. */
const open = { security: [], responses: { 431: ref("responses", "HeadersTooLarge") } };
const guarded = { 401: ref("responses", "Unauthorized"), 403: ref("responses", "Forbidden"), ...open.responses };
const refused = { 400: ref("responses", "BadRequest"), ...guarded };
const bodied = { ...refused, 413: ref("responses", "TooLarge") };

/** A JSON request body with its schema and an example. */
const body = (schema, example, required = true) => ({ required, content: { "application/json": { schema, example } } });

/** What the scenario routes answer with. */
const scenarioData = { type: "object", required: ["scenario"], properties: { scenario: ref("schemas", "ScenarioState") } };

/**
 * Each admin route's operation, by the operationId its row in admin.js's
 * table names: [tag, summary, description, the rest of the operation]. The
 * method and the path come from that table.
 */
const OPERATIONS = {
  health: ["server", "Liveness", "Whether the server is up: its version, where the gateway is, the generation, and whether the admin API asks for a token. Needs no token.", {
    ...open,
    responses: {
      200: ok("The server is up", {
        type: "object",
        required: ["status", "service", "version", "base", "generation", "uptimeMs", "adminToken"],
        properties: {
          status: { const: "ok" },
          service: { const: "orderpay" },
          version: { type: "string" },
          base: { type: "string", description: "The gateway's base path (--base), / when none" },
          generation,
          uptimeMs: whole,
          adminToken: { type: "boolean", description: "Whether the admin API asks for a token" },
        },
      }),
      ...open.responses,
    },
  }],
  gatewayOpenapi: ["server", "The gateway's OpenAPI document", "The OpenAPI 3.1 document of the eight endpoints of the spec, with this server's address in servers. Needs no token.", {
    ...open,
    responses: { 200: { description: "The document", content: json(ref("schemas", "OpenApiDocument")) }, ...open.responses },
  }],
  adminOpenapi: ["server", "The admin API's OpenAPI document", "This document, with this server's address in servers. Needs no token.", {
    ...open,
    responses: { 200: { description: "The document", content: json(ref("schemas", "OpenApiDocument")) }, ...open.responses },
  }],
  logs: ["log", "The log records", "The log records the service still holds, oldest first; with after, only the newer ones.", {
    parameters: [after],
    responses: {
      200: ok("The records", {
        type: "object",
        required: ["records", "droppedLogs", "generation"],
        properties: { records: { type: "array", items: ref("schemas", "LogRecord") }, droppedLogs: whole, generation },
      }),
      ...refused,
    },
  }],
  events: ["log", "The log as server-sent events", "A stream: `records` events ({records, droppedLogs, generation, counters, forced, now, virtualClock, nextDueAt, inProgress: the payments in progress as GET in-progress lists them}, each id the last seq, at most 500 records each) whenever requests were answered, the first change after a quiet spell at once and then at most every 50 ms, and `replaced` ({generation, settings}) when a reset or a restore swapped the service.", {
    parameters: [
      { ...after, description: "Start after this seq (else after Last-Event-ID, else from the first record)" },
      { name: "Last-Event-ID", in: "header", required: false, description: "The last seq a reconnecting client got", schema: { type: "string" } },
    ],
    responses: { 200: { description: "The stream, open until the client or the server ends it", content: text("text/event-stream", "Server-sent events") }, ...refused },
  }],
  counters: ["log", "What the service counted", "Counts over every request, whatever the log still holds: the JS API's ServiceCounters.", {
    responses: {
      200: ok("The counters", {
        type: "object",
        required: ["counters", "droppedLogs", "generation"],
        properties: {
          counters: {
            type: "object",
            required: ["requests", "byRoute", "payments", "durations", "complete"],
            properties: {
              requests: whole,
              byRoute: { type: "array", items: { type: "object" } },
              payments: { type: "object" },
              durations: { type: "object" },
              complete: { type: "boolean" },
            },
          },
          droppedLogs: whole,
          generation,
        },
      }),
      ...guarded,
    },
  }],
  logsNdjson: ["log", "The log as NDJSON", "One log record a line, for Kibana, Loki or jq.", {
    responses: { 200: { description: "The records", content: text("application/x-ndjson", "One JSON record a line") }, ...guarded },
  }],
  clearLogs: ["log", "Empty the log", "Drops every record the log holds; the counters stay.", {
    responses: { 200: ok("Emptied", { type: "object", required: ["droppedLogs"], properties: { droppedLogs: whole } }), ...guarded },
  }],
  spans: ["traces", "The spans", "The spans, oldest first, of every trace or of one.", {
    parameters: [{ name: "traceId", in: "query", required: false, description: "Only this trace's spans", schema: { type: "string", pattern: TRACE_ID } }],
    responses: { 200: ok("The spans", { type: "array", items: ref("schemas", "Span") }), ...refused },
  }],
  otlp: ["traces", "The spans as OTLP/JSON", "The spans in the OTLP/JSON form a collector's /v1/traces takes.", {
    responses: { 200: { description: "OTLP/JSON traces", content: json({ type: "object", required: ["resourceSpans"], properties: { resourceSpans: { type: "array", items: { type: "object" } } } }) }, ...guarded },
  }],
  exportTest: ["state", "The run as a test", "The session's run since its start or last reset (requests, advance, scenario, force-next, challenges) as the text of a runnable test, what service.exportTest gives: a bash script of curl calls for this server (curl, the default), a Vitest test (vitest) or a Playwright test (playwright). A run that cannot be replayed exactly (a state restored from a snapshot or --state, orders a Pact provider state placed, or past the journal's 10,000 steps) is a 409 saying why.", {
    parameters: [{ name: "format", in: "query", required: false, description: "curl (default), vitest or playwright", schema: { enum: ["curl", "vitest", "playwright"] } }],
    responses: {
      200: { description: "The test's text", content: { ...text("text/x-shellscript", "A bash script"), ...text("text/javascript", "A Vitest or Playwright test") } },
      409: { description: "The run cannot be replayed exactly: msg says why", content: json(ref("schemas", "ErrorEnvelope")) },
      ...refused,
    },
  }],
  snapshot: ["state", "The whole state", "The snapshot text of the whole state, for PUT /snapshot, --state or Service.restore.", {
    responses: { 200: { description: "The snapshot", content: json(ref("schemas", "Snapshot")) }, ...guarded },
  }],
  restore: ["state", "Replace the whole state", "Replaces the whole state with a snapshot's; text that is no snapshot is refused, changing nothing.", {
    requestBody: { required: true, content: json(ref("schemas", "Snapshot")) },
    responses: {
      200: ok("Restored", { type: "object", required: ["generation", "settings"], properties: { generation, settings: ref("schemas", "Settings") } }),
      ...bodied,
    },
  }],
  settings: ["state", "The settings in force", "The settings, the pending forceNext and the clock.", {
    responses: {
      200: ok("The settings", {
        type: "object",
        required: ["settings", "forced", "now", "virtualClock", "nextDueAt", "droppedLogs", "generation"],
        properties: {
          settings: ref("schemas", "Settings"),
          forced: ref("schemas", "Forced"),
          ...clockProperties,
          droppedLogs: whole,
          generation,
        },
      }),
      ...guarded,
    },
  }],
  forceNext: ["state", "Decide the next payment attempts", "The next count payment attempts succeed or fail, whatever the draw; count 0 clears.", {
    requestBody: body(
      { type: "object", required: ["outcome"], properties: { outcome: { enum: ["success", "failure"] }, count: { type: "integer", minimum: 0, default: 1 } } },
      { outcome: "failure", count: 3 },
    ),
    responses: { 200: ok("Set", { type: "object", required: ["forced"], properties: { forced: ref("schemas", "Forced") } }), ...bodied },
  }],
  reset: ["state", "A fresh service", "A new service from the start options, with those of the body over them. A bad option is refused, changing nothing.", {
    requestBody: body(ref("schemas", "ServiceOptions"), { seed: 7, failureRate: 1, virtualTime: 1767225600000 }, false),
    responses: {
      200: ok("Reset", { type: "object", required: ["generation", "settings"], properties: { generation, settings: ref("schemas", "Settings") } }),
      ...bodied,
    },
  }],
  scenario: ["scenario", "The failure scenario in force", "The scenario document, when it was set, and how often each rule matched (seen) and fired; null when none.", {
    responses: { 200: ok("The scenario", scenarioData), ...guarded },
  }],
  setScenario: ["scenario", "Set the failure scenario", "Replaces the scenario (its rules' counts start again): a document, or a preset's name as a JSON string. A bad one is refused with a msg naming its path (scenario: rules[2].when.until: ...), changing nothing.", {
    requestBody: body(
      {
        oneOf: [
          ref("schemas", "ScenarioDocument"),
          { type: "string", description: "A preset: third-party-down, flaky-network, slow-payments, insufficient-funds, rate-limited, third-payment-fails" },
        ],
      },
      { name: "pay fails twice", rules: [{ when: { route: "/api/payment/pay", calls: { from: 1, to: 2 } }, then: { kind: "http", status: 503, retryAfter: 1 } }] },
    ),
    responses: { 200: ok("Set", scenarioData), ...bodied },
  }],
  clearScenario: ["scenario", "Clear the failure scenario", "No scenario: every request gets the spec's behaviour again.", {
    responses: { 200: ok("Cleared", { type: "object", required: ["scenario"], properties: { scenario: { type: "null" } } }), ...guarded },
  }],
  advance: ["state", "Move the virtual clock", "Moves a virtual clock (reset with virtualTime first) on by ms, and resolves, in due order, every payment's plan that came due: a pending payment succeeding or failing, a challenge answering itself, a reversal; and the webhook deliveries and retries that came due, answering once they are settled. On the wall clock ms moves nothing, and what is due now resolves (the server also resolves it by itself when it comes due).", {
    requestBody: body({ type: "object", required: ["ms"], properties: { ms: { type: "integer", minimum: 0 } } }, { ms: 60000 }),
    responses: { 200: ok("Moved", { type: "object", required: ["now", "virtualClock", "nextDueAt"], properties: clockProperties }), ...bodied },
  }],
  challenges: ["payments", "The payments awaiting a challenge", "The payments whose status is REQUIRES_ACTION (a 3-D Secure challenge nobody answered yet), in id order, and the service's clock.", {
    responses: {
      200: ok("The payments", {
        type: "object",
        required: ["challenges", "now"],
        properties: { challenges: { type: "array", items: ref("schemas", "Payment") }, now: { type: "integer", description: "The service's clock, Unix time in ms" } },
      }),
      ...guarded,
    },
  }],
  inProgress: ["payments", "The payments in progress", "The payments whose status is REQUIRES_ACTION (awaiting the buyer) or PENDING (awaiting the service's clock), whoever paid them, in id order, and the clock: its time, whether it is virtual, and the soonest change due.", {
    responses: {
      200: ok("The payments", {
        type: "object",
        required: ["payments", "now", "virtualClock", "nextDueAt"],
        properties: { payments: { type: "array", items: ref("schemas", "Payment") }, ...clockProperties },
      }),
      ...guarded,
    },
  }],
  completeChallenge: ["payments", "Answer a challenge", "Answers the payment's challenge as the buyer would on its page: pass (it becomes SUCCESS), fail or abandon (FAILED, authentication_required unless the scenario's rule names another code). A wrong outcome is refused naming outcome (400); no such payment 404; a payment that awaits no challenge 409, msg naming its status.", {
    parameters: [ref("parameters", "PaymentId")],
    requestBody: body(
      { type: "object", required: ["outcome"], properties: { outcome: { enum: ["pass", "fail", "abandon"] } } },
      { outcome: "pass" },
    ),
    responses: {
      200: ok("Answered: the payment as it is now", {
        type: "object",
        required: ["payment", "now"],
        properties: { payment: ref("schemas", "Payment"), now: { type: "integer", description: "The service's clock, Unix time in ms" } },
      }),
      404: { description: "No payment of that id: msg names paymentId", content: json(ref("schemas", "ErrorEnvelope")) },
      409: { description: "The payment awaits no challenge: msg names paymentId and its status", content: json(ref("schemas", "ErrorEnvelope")) },
      ...bodied,
    },
  }],
  webhooks: ["webhooks", "The webhook endpoints", "The endpoints (--webhook, POST /webhooks), each with its deliveries and their attempts.", {
    responses: {
      200: ok("The endpoints", { type: "object", required: ["webhooks"], properties: { webhooks: { type: "array", items: ref("schemas", "WebhookEndpoint") } } }),
      ...guarded,
    },
  }],
  addWebhook: ["webhooks", "Add a webhook endpoint", "Every later event of a type it wants is POSTed to url, signed with secret (made from the seed when absent) under header, retried on the schedule of docs/webhooks.md. A bad field is refused naming it, changing nothing. A reset goes back to the start options' endpoints.", {
    requestBody: body(
      {
        type: "object",
        required: ["url"],
        properties: {
          url: { type: "string", description: "An absolute http(s) URL" },
          secret: { type: "string" },
          events: { type: "array", items: { type: "string" }, default: ["*"] },
          header: { enum: ["Orderpay-Signature", "Stripe-Signature"], default: "Orderpay-Signature" },
        },
      },
      { url: "http://127.0.0.1:3000/webhooks", events: ["payment.succeeded", "payment.failed"] },
    ),
    responses: { 200: ok("Added", { type: "object", required: ["webhook"], properties: { webhook: ref("schemas", "WebhookEndpoint") } }), ...bodied },
  }],
  webhookEvents: ["webhooks", "The events", "The state changes, oldest first (at most 10,000 kept); with after, those after that event. The log's own stream is GET /events.", {
    parameters: [{ name: "after", in: "query", required: false, description: "Only the events after this one", schema: { type: "string", pattern: "^evt_" } }],
    responses: {
      200: ok("The events", {
        type: "object",
        required: ["events", "now"],
        properties: { events: { type: "array", items: ref("schemas", "WebhookEvent") }, now: { type: "integer", description: "The service's clock, Unix time in ms" } },
      }),
      ...refused,
    },
  }],
  removeWebhook: ["webhooks", "Remove a webhook endpoint", "Nothing more is sent to it. No such endpoint: 404.", {
    parameters: [{ name: "id", in: "path", required: true, description: "The endpoint's id, we_…", schema: { type: "string", minLength: 1 } }],
    responses: {
      200: ok("Removed", { type: "object", required: ["removed"], properties: { removed: { type: "string" } } }),
      404: { description: "No endpoint of that id", content: json(ref("schemas", "ErrorEnvelope")) },
      ...guarded,
    },
  }],
  resendDelivery: ["webhooks", "Resend a delivery", "A new attempt of the delivery now, whatever its state; answers once it is settled, with the delivery then. No such delivery: 404.", {
    parameters: [{ name: "id", in: "path", required: true, description: "The delivery's id, wd_…", schema: { type: "string", minLength: 1 } }],
    responses: {
      200: ok("Resent", { type: "object", required: ["delivery"], properties: { delivery: ref("schemas", "WebhookDelivery") } }),
      404: { description: "No delivery of that id", content: json(ref("schemas", "ErrorEnvelope")) },
      ...refused,
    },
  }],
  providerStates: ["pact", "Set up or tear down a Pact provider state", "The state change Pact's verifier sends (its providerStatesSetupUrl, or --state-change-url, with the body): {state, params, action}. A setup of an interaction's first state makes the session fresh, as a reset does; the interaction's other states (no request between them) add to it. A teardown makes the session fresh. The states: \"an order ORD-XXXXXXXX exists\", \"an order exists\" (params orderId, userId, price, description, status CREATED or PAID; the id is ORD-PACT0001, ORD-PACT0002, ... when none), \"a payment exists\" (params orderId, amount, paymentMethod, refunded; answers its paymentId), \"payments succeed\", \"payments fail\", \"payments are declined for insufficient funds\", \"the third party is down\", a preset's name, the name of the scenario the server started with, and any name with params.scenario (a document or a preset's name). The answer is the values Pact may put in the interaction (fromProviderState), as a flat JSON object, not the envelope. Any other state is a 400 naming it and listing the states, changing nothing; so is a bad param, and a state that fails while it is set up (an id the session issued, a payment a scenario declines), the session put back as it was.", {
    requestBody: body(
      {
        type: "object",
        required: ["state"],
        properties: {
          state: { type: "string", minLength: 1 },
          params: {
            type: ["object", "null"],
            properties: {
              orderId: { type: "string" },
              userId: { type: "string" },
              price: { type: "number", exclusiveMinimum: 0 },
              description: { type: "string" },
              status: { enum: ["CREATED", "PAID"] },
              amount: { type: "number", exclusiveMinimum: 0 },
              paymentMethod: { enum: ["CARD", "WALLET_A", "WALLET_B"] },
              refunded: { type: "boolean" },
              scenario: { oneOf: [ref("schemas", "ScenarioDocument"), { type: "string", description: "A preset's name" }] },
            },
          },
          action: { enum: ["setup", "teardown"], default: "setup" },
        },
      },
      { state: "an order ORD-PACT0001 exists", params: {}, action: "setup" },
    ),
    responses: {
      200: {
        description: "Set up (the values: an order's or a payment's fields, the scenario's name, how many attempts are forced) or torn down ({})",
        content: json({
          type: "object",
          properties: {
            orderId: { type: "string" },
            paymentId: { type: "string" },
            userId: { type: "string" },
            price: { type: "number" },
            amount: { type: "number" },
            paymentMethod: { type: "string" },
            status: { type: "string" },
            description: { type: "string" },
            createdAt: { type: "integer" },
            paidAt: { type: "integer" },
            scenario: { type: "string" },
            forced: { type: "integer" },
          },
        }),
      },
      ...bodied,
    },
  }],
};

/** The document's paths: one operation for each row of admin.js's table of routes, and no other. */
function paths() {
  const out = {};
  const unused = new Set(Object.keys(OPERATIONS));
  for (const [method, path, operationId] of adminRoutes({})) {
    if (!Object.hasOwn(OPERATIONS, operationId)) throw new Error(`admin-openapi.js: no operation ${operationId} for ${method} ${path}`);
    unused.delete(operationId);
    const [tag, summary, description, rest] = OPERATIONS[operationId];
    out[`${PREFIX}${path}`] ??= {};
    out[`${PREFIX}${path}`][method.toLowerCase()] = { operationId, summary, description, tags: [tag], ...rest };
  }
  if (unused.size) throw new Error(`admin-openapi.js: no admin route for ${[...unused].join(", ")}`);
  return out;
}

/**
 * The document, for a server whose origin is `origin` (its admin API under
 * /__orderpay). `manifest`: the package's package.json (version, license,
 * repository), as the gateway's document takes them from Cargo.toml.
 */
export function adminOpenapi({ version, license, repository }, origin = "http://127.0.0.1:4010") {
  return addSessions({
    openapi: "3.1.0",
    info: {
      title: "orderpay admin API",
      version,
      description:
        "What `orderpay serve` offers beside the gateway, for tests in any language: the log, the spans, the counters, " +
        "the whole state, forceNext, reset, the clock, the failure scenario, the payments awaiting a challenge, the webhooks and Pact's provider states. Answers are the {code, msg, data} envelope, except the documents " +
        "(NDJSON, server-sent events, OTLP/JSON, the snapshot, the OpenAPI documents) and a provider state's values, which come as themselves. " +
        "HEAD is answered wherever GET is.",
      license: { name: license, identifier: license },
      contact: { name: "orderpay", url: repository?.url ?? repository },
    },
    servers: [{ url: origin }],
    tags: [
      { name: "server", description: "Liveness and the OpenAPI documents, open to anyone" },
      { name: "log", description: "The log records and what the service counted" },
      { name: "traces", description: "The spans, as JSON and OTLP/JSON" },
      { name: "state", description: "The whole state, its settings, forceNext, reset and the clock" },
      { name: "scenario", description: "The failure scenario: which requests fail, and how" },
      { name: "payments", description: "The payments in progress, those awaiting a 3-D Secure challenge, and answering one" },
      { name: "webhooks", description: "The webhook endpoints, their deliveries, and the events they are sent" },
      { name: "pact", description: "Pact's provider states, for verifying orderpay serve as a Pact provider" },
    ],
    // On loopback with no --admin-token: nothing; else the bearer token.
    security: [{}, { adminToken: [] }],
    paths: paths(),
    components: {
      schemas,
      responses,
      parameters: {
        PaymentId: { name: "paymentId", in: "path", required: true, description: "The payment's id, PAY-…", schema: { type: "string", minLength: 1 } },
      },
      securitySchemes: {
        adminToken: {
          type: "http",
          scheme: "bearer",
          description: "The --admin-token, or the one printed at start when --host reaches beyond loopback",
        },
      },
    },
  });
}
