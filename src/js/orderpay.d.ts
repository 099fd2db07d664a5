// The public types of the package's main module (orderpay.js), written by
// hand: the WebAssembly module's own exports take plain data only, and
// nobody calls them but the package's JS layer.
/** An order, as create-order and get-order return it. */
export interface Order {
  /** `ORD-` and 8 upper-case letters or digits. */
  orderId: string;
  userId: string;
  price: number;
  status: "CREATED" | "PAID";
  description: string;
  /** Unix time in milliseconds. */
  createdAt: number;
}

export type PaymentMethod = "CARD" | "WALLET_A" | "WALLET_B";

/** What every Payment holds, whatever its status. */
interface PaymentBase {
  /** `PAY-` and 8 upper-case letters or digits. */
  paymentId: string;
  orderId: string;
  amount: number;
  paymentMethod: PaymentMethod;
  /** Unix time in milliseconds: when the pay request came, whatever happened since. */
  paidAt: number;
}

/** A payment taken (the spec's one status), or refunded. */
export interface SettledPayment extends PaymentBase {
  status: "SUCCESS" | "REFUNDED";
}

/** A payment awaiting a 3-D Secure challenge: send the buyer to `nextAction.url`. */
export interface RequiresActionPayment extends PaymentBase {
  status: "REQUIRES_ACTION";
  /** The challenge page: a path relative to the gateway's base URL (with base "/", the URL itself). */
  nextAction: { type: "redirect"; url: string };
}

/** A payment still processing: it becomes SUCCESS or FAILED on the service's clock. */
export interface PendingPayment extends PaymentBase {
  status: "PENDING";
}

/** A payment that failed after it was answered: a challenge failed or abandoned, a pending one declined, a reversal. */
export interface FailedPayment extends PaymentBase {
  status: "FAILED";
  /** A decline code, such as "authentication_required" or "insufficient_funds". */
  failureCode: DeclineCode;
  failureReason: string;
}

/**
 * A payment, as payment pay and get-payment return it: narrow on `status`
 * for `nextAction` (REQUIRES_ACTION) or `failureCode` and `failureReason` (FAILED).
 */
export type Payment = SettledPayment | RequiresActionPayment | PendingPayment | FailedPayment;

/** A pay the third party declined at once, as its payment.failed event shows it: no payment is kept, so `paymentId` is null; `paidAt` is when it was declined. */
export interface DeclinedPay {
  paymentId: null;
  orderId: string;
  amount: number;
  status: "FAILED";
  paymentMethod: PaymentMethod;
  paidAt: number;
  /** The decline's code; processing_error when the third party timed out or failed. */
  failureCode: DeclineCode;
  failureReason: string;
}

/** The type of an event: a state change of an order or a payment. */
export type WebhookEventType =
  | "order.created" | "order.paid" | "order.deleted"
  | "payment.succeeded" | "payment.failed" | "payment.requires_action" | "payment.pending" | "payment.refunded";

/** One event of type `T` about `R`: exactly the JSON a webhook delivery sends as its body. */
export interface WebhookEventOf<T extends WebhookEventType, R> {
  /** `evt_` and 22 letters or digits, made from the seed and the event's place in order. */
  id: string;
  object: "event";
  type: T;
  /** The service's time of the change, Unix seconds. */
  created: number;
  /** The same time, Unix ms. */
  createdAt: number;
  /** The trace of the request (or of the pay, for a change that came later) that caused it. */
  traceId: string;
  /** The resource as a read shows it after the change (an order deleted as it was). */
  data: { object: R };
}

/** Every event, discriminated on `type`. */
export type WebhookEvent =
  | WebhookEventOf<"order.created" | "order.paid" | "order.deleted", Order>
  | WebhookEventOf<"payment.succeeded" | "payment.refunded", SettledPayment>
  | WebhookEventOf<"payment.requires_action", RequiresActionPayment>
  | WebhookEventOf<"payment.pending", PendingPayment>
  | WebhookEventOf<"payment.failed", FailedPayment | DeclinedPay>;

/** What `events()` reads after. */
export interface EventsOptions {
  /** An event's id: only the events after it. One dropped from the log gives every event kept. */
  after?: string;
}

/** Every status a Payment can have. */
export type PaymentStatus = Payment["status"];

/** The outcome of a challenge: the buyer's Complete (pass), Fail (fail) or Cancel (abandon). */
export type ChallengeOutcome = "pass" | "fail" | "abandon";

/** The body of POST /api/payment/pay. */
export interface PayBody {
  orderId: string;
  amount: number;
  paymentMethod: PaymentMethod;
  /** A test card's number (spaces and dashes allowed): its outcome instead of the draw. An unknown one is a 400 naming cardNumber; so is one with a paymentMethod other than CARD. */
  cardNumber?: string;
  /** Where the challenge page sends the browser back: an absolute http(s) URL or a path starting with "/". Kept only for a challenged payment. */
  returnUrl?: string;
}

/** What GET /api/test/order/batch?count=N returns. */
export interface BatchReport {
  count: number;
  succeeded: number;
  failed: number;
  orderIds: string[];
}

/**
 * The `code` of an answer that did not succeed. -1: a business error, sent
 * with HTTP 200 ("Paid order cannot be deleted", "Third party payment
 * failed", "Order not found"...). Any other: the HTTP status of a refused
 * request, so the body alone tells the two apart: 400 a malformed request
 * (its msg names the field), 404 a path with no route, 405 a wrong method, 413
 * a body over 1 MiB, 414 a path over 8 KiB, 415 a body that is not JSON by
 * its Content-Type, 431 headers over their limits, 500 a fault inside the
 * module, 503 a Service used after free(), 507 more orders than maxOrders or more
 * Idempotency-Keys than idempotencyKeys.
 */
export type ErrorCode = -1 | 400 | 404 | 405 | 413 | 414 | 415 | 431 | 500 | 503 | 507;

/** Every `code` an answer can carry: 0 for success, else an ErrorCode. */
export type EnvelopeCode = 0 | ErrorCode;

/** A successful answer: code 0, msg "success", and the route's data (null for pay, delete and refund). */
export interface SuccessEnvelope<T> {
  code: 0;
  msg: "success";
  data: T;
}

/** An answer that did not succeed: data is always null, msg says why. */
export interface ErrorEnvelope {
  code: ErrorCode;
  msg: string;
  data: null;
}

/**
 * Every response body, discriminated on `code`: after `if (e.code === 0)`,
 * `e.data` is T; after `if (e.code !== 0)` or `if (e.code === -1)`, it is
 * null. T is the route's data when the method and path name a route (see
 * routes.d.ts); else the union of every route's data.
 */
export type Envelope<T = Order | Payment | BatchReport | null> = SuccessEnvelope<T> | ErrorEnvelope;

/** JSON text, or a value taken as its JSON, or bytes of UTF-8 JSON text. */
export type RequestBody = string | Uint8Array | object | number | boolean | null | undefined;

/** Header names are matched without regard to case. */
export type RequestHeaders =
  | Headers
  | Record<string, string | number | boolean>
  | Iterable<readonly [string, string]>
  | null
  | undefined;

/**
 * What an HTTP server would send. Header names are lower case: content-type,
 * x-b3-traceid, x-b3-spanid, x-b3-sampled, x-b3-parentspanid (when the caller
 * sent a span), traceparent, x-sim-duration-ms (the simulated time the request
 * took), and allow on a 405.
 */
export interface HttpResponse {
  status: number;
  headers: Record<string, string>;
  body: Envelope;
  /** What a scenario's rule did to this request, when one fired. */
  fault?: Fault;
}

/**
 * The challenge page of a payment that is or was challenged (`nextAction.url`, `GET` or `POST`
 * `/api/payment/{paymentId}/challenge`): HTML, not an envelope. `GET` answers 200 with the page;
 * `POST ?outcome=pass|fail|abandon` answers 303 to the pay's `returnUrl` (empty body), or 200 with the
 * result page when it gave none. A bad outcome (400) answers an envelope. A payment no longer waiting
 * answers 409 and changes nothing: a page saying how the challenge ended to a request whose `Accept`
 * starts with `text/html` (a browser's form), the envelope to every other client.
 */
export interface PageResponse {
  status: number;
  headers: Record<string, string>;
  body: string | Envelope;
}

/** A path to a payment's challenge page. */
export type ChallengePath = `${string}/challenge` | `${string}/challenge?${string}`;

/**
 * A request-phase network fault: the request never reached the service and
 * nothing answered. request() gives this shape; handle() throws NetworkFaultError.
 */
export interface NetworkFaultResponse {
  status: 0;
  headers: Record<string, never>;
  body: "";
  fault: NetworkFault;
}

/** Stripe's decline codes a scenario's `decline` gives. */
export type DeclineCode =
  | "generic_decline" | "insufficient_funds" | "lost_card" | "stolen_card" | "expired_card"
  | "incorrect_cvc" | "processing_error" | "authentication_required" | "card_declined"
  | "do_not_honor" | "card_velocity_exceeded" | "fraudulent";

export type NetworkFaultName = "reset" | "empty" | "short" | "hang" | "dribble" | "error";

/** What a rule that fires does (see docs/scenarios.md). */
export type ScenarioThen =
  | { kind: "decline"; code?: DeclineCode }
  | { kind: "timeout"; afterMs?: number }
  | { kind: "processor_error"; status?: number }
  | { kind: "http"; status?: 429 | 502 | 503 | 504; retryAfter?: number }
  | { kind: "delay"; ms?: number }
  | { kind: "network"; fault: NetworkFaultName; ms?: number; phase?: "request" | "response" }
  /** A 3-D Secure challenge: REQUIRES_ACTION, then answered by the buyer, completeChallenge, or the rule's `outcome` after `afterMs` (which needs `outcome`). */
  | { kind: "challenge"; outcome?: ChallengeOutcome; afterMs?: number; code?: DeclineCode }
  /** PENDING, then SUCCESS (outcome pass, the default) or FAILED with `code` after `forMs` (default 30000). */
  | { kind: "pending"; forMs?: number; outcome?: "pass" | "fail"; code?: DeclineCode }
  /** SUCCESS, then FAILED after `afterMs` (default 60000), with `code` as its failureCode. */
  | { kind: "reversal"; afterMs?: number; code?: DeclineCode };

/** Which requests a rule matches, and when it fires; every matcher given must hold. */
export interface ScenarioWhen {
  /** A documented template such as "/api/payment/pay" or "/api/order/{orderId}", or a group: "order", "payment", "test". */
  route?: string;
  method?: "GET" | "POST";
  userId?: string;
  paymentMethod?: "CARD" | "WALLET_A" | "WALLET_B";
  amount?: number;
  orderId?: string;
  header?: { name: string; value: string };
  /** Only a delivery rule's (DeliveryWhen). */
  event?: never;
  /** The Nth match only. */
  nth?: number;
  /** Every Kth match. */
  every?: number;
  /** Matches `from` to `to`, inclusive. */
  calls?: { from?: number; to?: number };
  /** On the service's clock, epoch ms: from (inclusive) until (exclusive). */
  from?: number;
  until?: number;
  /** For this many ms from when the scenario was set. */
  forMs?: number;
  /** A seeded draw from the scenario's own stream. */
  probability?: number;
  /** Fires at most this many times. */
  times?: number;
}

/** The event types, as `when.event` and the events name them. */
export type EventType =
  | "order.created" | "order.paid" | "order.deleted"
  | "payment.succeeded" | "payment.failed" | "payment.requires_action" | "payment.pending" | "payment.refunded";

/** What a delivery rule does to one event's delivery to one endpoint (see docs/scenarios.md, "Delivery faults"). */
export type DeliveryThen =
  /** Delivered `times` times in all (2 to 10, default 2). */
  | { kind: "duplicate"; times?: number }
  /** The first attempt `ms` after the event (default 60000). */
  | { kind: "late"; ms?: number }
  /** `hold` events (2 to 100, default 2) held, then delivered in reverse (the default) or a seeded shuffle. */
  | { kind: "reorder"; hold?: number; order?: "reverse" | "shuffle" }
  /** Signed with a timestamp `ageS` seconds old (default 600). */
  | { kind: "stale_timestamp"; ageS?: number }
  | { kind: "tampered_body" }
  | { kind: "wrong_signature" }
  /** The first `attempts` attempts (1 to 10, default 1) lost on the sender's side. */
  | { kind: "drop"; attempts?: number };

/** Which events a delivery rule matches: the conditions of ScenarioWhen, an event type, and the resource's fields; no request matcher. */
export interface DeliveryWhen extends Omit<ScenarioWhen, "route" | "method" | "header" | "event"> {
  /** An event type, or a group: "order.*", "payment.*". */
  event?: EventType | "order.*" | "payment.*";
  route?: never;
  method?: never;
  header?: never;
}

/** A rule on requests, or a rule on webhook deliveries (a delivery kind). */
export type ScenarioRule =
  | { name?: string; when?: ScenarioWhen; then: ScenarioThen }
  | { name?: string; when?: DeliveryWhen; then: DeliveryThen };

/** What a delivery rule did to an attempt, as its record gives it: the rule's name and the kind's members, defaults filled in. */
export type DeliveryFault =
  | { kind: "duplicate"; rule: string; times: number }
  | { kind: "late"; rule: string; ms: number }
  | { kind: "reorder"; rule: string; hold: number; order: "reverse" }
  /** `seed`: drawn from the scenario's stream when the rule fired; it fixes the shuffle. */
  | { kind: "reorder"; rule: string; hold: number; order: "shuffle"; seed: number }
  | { kind: "stale_timestamp"; rule: string; ageS: number }
  | { kind: "tampered_body" | "wrong_signature"; rule: string }
  | { kind: "drop"; rule: string; attempts: number };

/** A scenario document: rules tried in order, the first that fires wins. */
export interface ScenarioDocument {
  name?: string;
  rules: ScenarioRule[];
}

export type ScenarioPreset =
  | "third-party-down" | "flaky-network" | "slow-payments" | "insufficient-funds" | "rate-limited" | "third-payment-fails";

/** The scenario in force and where it stands. */
export interface ScenarioState {
  document: ScenarioDocument;
  /** The service's time when it was set (forMs counts from it). */
  setAt: number;
  rules: { name: string; seen: number; fired: number }[];
}

/** A network fault, as request() reports it and NetworkFaultError carries it. */
export interface NetworkFault {
  kind: "network";
  /** The rule's name. */
  rule: string | null;
  fault: NetworkFaultName;
  /** A hang's bound on the server, a dribble's length. */
  ms: number;
  phase: "request" | "response";
}

/** What a scenario did to a request. */
export type Fault =
  | NetworkFault
  | { kind: "decline"; rule: string | null; code: DeclineCode }
  | { kind: "timeout" | "delay"; rule: string | null; ms: number }
  | { kind: "processor_error"; rule: string | null; status: number }
  | { kind: "http"; rule: string | null; status: 429 | 502 | 503 | 504; retryAfter?: number }
  | { kind: "challenge"; rule: string | null; outcome?: ChallengeOutcome; afterMs?: number; code: DeclineCode }
  | { kind: "pending"; rule: string | null; forMs: number; outcome: "pass" | "fail"; code?: DeclineCode }
  | { kind: "reversal"; rule: string | null; afterMs: number; code: DeclineCode };

/** The presets' documents, by name: the files orderpay/scenarios/NAME.json too. */
export const presets: Readonly<Record<ScenarioPreset, ScenarioDocument>>;

/** What handle() throws when a scenario's network fault loses the answer, as fetch rejects. */
export class NetworkFaultError extends TypeError {
  readonly name: "NetworkFaultError";
  readonly fault: NetworkFault;
}

export type UriGroup = "/order/*" | "/payment/*" | "/test/*";
export type EventClass = "order" | "payment" | "test";
export type LogStatus = "success" | "server_error" | "client_error";

interface LogRecordBase {
  /** Position in the journal, from 1; gaps show dropped records. */
  seq: number;
  /** Unix time in milliseconds. */
  timestamp: number;
  traceId: string;
  /** The gateway's span for gateway and response records, the service's for service records. */
  spanId: string;
  /** The caller's span (from B3 or traceparent) for gateway and response records; the gateway's span for service records. */
  parentSpanId: string | null;
}

/** Why a payment attempt ended as it did. */
export interface PaymentOutcome {
  approved: boolean;
  /**
   * "draw": the seeded draw against the failure rate; "header": X-Sim-Outcome; "forced-next": forceNext();
   * "scenario": a scenario's rule (a decline, a timeout or a processor error), named in `scenarioRule`.
   */
  rule: "draw" | "header" | "forced-next" | "scenario" | "card";
  /** Only when `rule` is "scenario": the name of the scenario's rule that decided (the response record's `fault.rule`). */
  scenarioRule?: string;
  /** Only when `rule` is "card": the test card's number, as the pay body gave it, spaces taken out. */
  card?: string;
  /** Only when the payment goes on after its answer (a challenge, pending, a reversal): what is planned, and when it is due (null: it waits for the buyer). */
  async?: { kind: PaymentChangeKind; dueAt: number | null; outcome?: ChallengeOutcome; code?: DeclineCode };
  /** 1 for the first attempt on the order, 2 for the first retry... */
  attempt: number;
  /** The seeded draw in [0, 1); below the threshold fails. */
  draw: number;
  threshold: number;
  /** A scenario's decline code: the rule's, or "generic_decline" for a drawn decline while a scenario is set. */
  declineCode?: string;
  /**
   * Only when a scenario's rule decided: "declined" (the third party declined), "timeout" (it never answered),
   * or the 5xx status it answered (a processor error). Only "declined" is a decline by the third party.
   */
  thirdParty?: "declined" | "timeout" | number;
  reason: string;
}

/** Written when the gateway receives a request. */
export interface GatewayRecord extends LogRecordBase {
  stage: "gateway";
  method: string;
  uri: string;
  uri_group: UriGroup | null;
}

/** Written when a service handled the request. */
export interface ServiceRecord extends LogRecordBase {
  stage: "service";
  event_class: EventClass;
  /** Simulated milliseconds. */
  duration: number;
  status: LogStatus;
  /** Payment pay only: what the simulated third party decided, and why. */
  outcome?: PaymentOutcome;
}

/** Written when the response goes out: the whole logging context. */
export interface ResponseRecord extends LogRecordBase {
  stage: "response";
  method: string;
  uri: string;
  uri_group: UriGroup | null;
  event_class: EventClass | null;
  duration: number | null;
  status: LogStatus;
  httpStatus: number;
  code: number;
  msg: string;
  userId: string | null;
  /** Only on the replay of an answer kept under an `Idempotency-Key`: nothing ran. */
  replay?: true;
  /** Only when a scenario's rule fired (or a drawn decline under a scenario): what request() reported. */
  fault?: Fault;
}

/** The kind of plan a payment that changes after its answer has. */
export type PaymentChangeKind = "challenge" | "pending" | "reversal";

/** What planned a payment's change at the pay: a scenario's rule, by name, or a test card, its digits. */
export type PaymentChangePlanner =
  | { rule: "scenario"; scenarioRule: string }
  | { rule: "card"; card: string };

/**
 * What changed a payment's status after its answer: what planned it, when
 * it came due on the service's clock; or the buyer (the challenge page,
 * completeChallenge or the admin API), with what planned the challenge.
 */
export type PaymentChangeCause =
  | PaymentChangePlanner
  | { rule: "buyer"; outcome: ChallengeOutcome; planned: PaymentChangePlanner };

/**
 * Written when a payment's status changes after its answer (a challenge
 * answered, a pending payment resolved, a reversal), in the pay request's trace.
 */
export interface PaymentRecord extends LogRecordBase {
  stage: "payment";
  event_class: "payment";
  paymentId: string;
  from: PaymentStatus;
  to: PaymentStatus;
  kind: PaymentChangeKind;
  cause: PaymentChangeCause;
  /** Only when it became FAILED. */
  failureCode?: DeclineCode;
  /** Only when it became FAILED: one of the texts docs/api.md lists. */
  failureReason?: string;
}

/**
 * Written when the sender reports a webhook delivery attempt, in the trace of
 * the request that caused its event (a child of that request's span), at the
 * attempt's time on the service's clock. Its span (component "webhook") is
 * named `webhook POST <url>` or `webhook handler`.
 */
export interface WebhookRecord extends LogRecordBase {
  stage: "webhook";
  /** `we_<n>`. */
  endpointId: string;
  /** The endpoint's URL; absent for an in-process handler. */
  url?: string;
  /** Only for an in-process handler. */
  handler?: true;
  /** `wd_<n>`. */
  deliveryId: string;
  eventId: string;
  eventType: WebhookEventType;
  /** 1 for the first attempt, 2 for the first retry... */
  attempt: number;
  /** "success" for a 2xx, "client_error" for a 4xx, else (no answer, a 5xx) "server_error". */
  status: LogStatus;
  /** The receiver's status; null when no answer came (a timeout, no connection, a drop). */
  httpStatus: number | null;
  durationMs: number;
  /** Why it failed, as the sender reported it (`timeout after 10000 ms`, `dropped`...), or null. */
  error: string | null;
  /** When the next attempt is due (Unix ms); null when the delivery finished. */
  nextAttemptAt: number | null;
  /** Only when a delivery rule's fault touched the attempt. */
  fault?: DeliveryFault;
}

export type LogRecord = GatewayRecord | ServiceRecord | ResponseRecord | PaymentRecord | WebhookRecord;

export type SpanComponent = "gateway" | "order-service" | "payment-service" | "third-party" | "test-data" | "webhook";

/** One timed piece of a request's work. Times are Unix ms, simulated from the request's arrival. */
export interface Span {
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  name: string;
  component: SpanComponent;
  start: number;
  end: number;
  status: LogStatus;
  /** [key, value] pairs, OpenTelemetry semantic-convention names. */
  attributes: [string, string | number | boolean][];
}

export interface OtlpAnyValue {
  stringValue?: string;
  /** int64, as a decimal string */
  intValue?: string;
  doubleValue?: number;
  boolValue?: boolean;
}
export interface OtlpKeyValue { key: string; value: OtlpAnyValue; }
export interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  /** 2: SERVER, 3: CLIENT */
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: OtlpKeyValue[];
  /** code 2: ERROR, its message `server_error` or the kind of the scenario fault that failed the request (http, network, timeout, processor_error); empty: unset */
  status: { code?: number; message?: string };
}
/** An OTLP/JSON ExportTraceServiceRequest, as POST /v1/traces takes it. */
export interface OtlpTraces {
  resourceSpans: {
    resource: { attributes: OtlpKeyValue[] };
    scopeSpans: { scope: { name: string; version: string }; spans: OtlpSpan[] }[];
  }[];
}

/** One step's simulated latency: baseMs + uniform(0..spreadMs), plus uniform(0..tailMs) with chance tailChance. */
export interface LatencyProfile {
  baseMs?: number;
  spreadMs?: number;
  tailChance?: number;
  tailMs?: number;
}

export interface ServiceSettings {
  seed: number;
  failureRate: number;
  logCapacity: number;
  maxOrders: number;
  /** Shown only when set to other than its default, 10000. */
  idempotencyKeys?: number;
  latency: { order: Required<LatencyProfile>; payment: Required<LatencyProfile>; thirdParty: Required<LatencyProfile>; test: Required<LatencyProfile> };
}

/** The signature header a delivery carries: the same value under either name. */
export type WebhookSignatureHeader = "Orderpay-Signature" | "Stripe-Signature";

/** What an endpoint is registered with: a URL (POSTed with fetch) or an in-process handler. */
interface WebhookSpecCommon {
  /** The signing secret; made from the seed (`whsec_…`) when absent. */
  secret?: string;
  /** The event types sent; default `["*"]`, every type. */
  events?: ReadonlyArray<WebhookEventType | "*">;
  /** The header the signature goes under. Default `"Orderpay-Signature"`. */
  header?: WebhookSignatureHeader;
}
export type WebhookSpec =
  | (WebhookSpecCommon & {
      /** An absolute http(s) URL, POSTed to with fetch. */
      url: string;
      handler?: never;
    })
  | (WebhookSpecCommon & {
      /** Called in this process with the delivery as a `Request`; answers a `Response` (2xx: delivered). */
      handler: (request: Request) => Response | Promise<Response>;
      url?: never;
    });

/** One attempt of a delivery, as the service recorded it. */
export interface WebhookAttempt {
  /** 1 for the first. */
  n: number;
  /** When it was due on the service's clock, Unix ms. */
  at: number;
  /** The receiver's HTTP status; absent when none came (an error says why). */
  status?: number;
  /** Why the attempt failed without a status: a timeout, a refused connection, a handler that threw, a drop. */
  error?: string;
  /** Real time the attempt took. */
  durationMs: number;
  /** The scenario rule whose delivery fault touched this attempt. */
  fault?: { rule: string; kind: string };
}

/** One event's delivery to one endpoint, with its attempts. */
export interface WebhookDelivery {
  /** `wd_<n>`. */
  id: string;
  /** The event's id. */
  event: string;
  /** The endpoint's id. */
  endpoint: string;
  state: "pending" | "in_flight" | "delivered" | "failed";
  attempts: WebhookAttempt[];
  /** When the next attempt is due, Unix ms; null when none will be. */
  nextAttemptAt: number | null;
}

/** A registered endpoint. */
export interface WebhookEndpoint {
  /** `we_<n>`. */
  id: string;
  /** Its URL; absent for a handler. */
  url?: string;
  /** True for an in-process handler. */
  handler?: true;
  secret: string;
  events: Array<WebhookEventType | "*">;
  header?: WebhookSignatureHeader;
  /** Its deliveries (in `webhooks()`), oldest first. */
  deliveries?: WebhookDelivery[];
}

export interface ServiceOptions {
  /** Same seed and same calls: same ids, outcomes and log records. A whole number from 0 to 2^53 - 1; random when absent. */
  seed?: number;
  /** Share of payment attempts the simulated third party declines, 0 to 1. Default 0.3. */
  failureRate?: number;
  /** Most log records kept; the oldest are dropped first. Default 10000, at most 1000000. */
  logCapacity?: number;
  /** Most orders kept at once; creating one more answers HTTP 507 until orders are deleted. Default 1000000. */
  maxOrders?: number;
  /**
   * Most `Idempotency-Key`s kept at once (each for 24 hours of the service's clock);
   * a new key past it answers HTTP 507 until keys expire. Default 10000, at most 1000000.
   */
  idempotencyKeys?: number;
  /**
   * Start a virtual clock at this Unix time (ms): timestamps then move only by
   * simulated latency and `advance(ms)`, so a whole session replays to the byte.
   * Absent: the wall clock.
   */
  virtualTime?: number;
  /** Overrides of the simulated latency model; unnamed fields keep their defaults. */
  latency?: { order?: LatencyProfile; payment?: LatencyProfile; thirdParty?: LatencyProfile; test?: LatencyProfile };
  /** A scenario from the start: a document, its JSON text or a preset's name (see docs/scenarios.md). */
  scenario?: ScenarioDocument | ScenarioPreset | string | null;
  /** Webhook endpoints from the start (docs/webhooks.md); a bad one throws a TypeError or RangeError naming it, such as `webhooks[0].url`. */
  webhooks?: WebhookSpec[];
}

/** Simulated durations of the requests one service handled, in fixed buckets. */
export interface DurationHistogram {
  count: number;
  sumMs: number;
  maxMs: number;
  /** One count per bucket: `buckets[i]` is below `edgesMs[i]` and at least `edgesMs[i - 1]`; the last is at least the last edge. */
  buckets: number[];
}

/** Approvals and declines of payment attempts decided by one rule. */
export interface PaymentOutcomes {
  approved: number;
  declined: number;
}

/**
 * The payment attempts that reached the third party, over the service's
 * whole life (docs/api.md, "What payments were taken"). An attempt refused
 * before the third party (a 4xx, `amount must be > 0`, `Order not found`, a
 * scenario's gateway 429/503 or request-phase network fault) is none; a
 * replay under an `Idempotency-Key`, a refund and `clearLogs()` move
 * nothing; a response-phase network fault's lost answer still counts.
 */
export interface PaymentCounters {
  /** Attempts that reached the third party: `approved + declined`. */
  attempts: number;
  /** Payments taken: each stored a `Payment` with status `SUCCESS`. "Exactly one payment was taken" is `approved === 1`. */
  approved: number;
  /** Attempts answered "Third party payment failed" (a drawn or forced decline, a scenario's decline, timeout or processor error); none stored a payment. */
  declined: number;
  /** By what decided the attempt: the seeded draw, X-Sim-Outcome, forceNext, or a scenario's rule (its decline, timeout or processor error). */
  byRule: Record<"draw" | "header" | "forced-next", PaymentOutcomes> & {
    /** A scenario's rule (never approved): there once a scenario's rule decided an attempt. */
    scenario?: PaymentOutcomes;
    /** A test card of the pay body (`cardNumber`): there once a card decided an attempt. */
    card?: PaymentOutcomes;
  };
  /** The running share: `approved[i]` is the approvals after `(i + 1) * every` attempts; at most 256 points, `every` doubling as attempts grow. */
  running: { every: number; approved: number[] };
  /**
   * Payments that change after their answer (asynchronous payments): absent until one count is not zero, then
   * every count. `requiresAction` and `pending` count the pays that started so; the rest count changes of state.
   */
  changes?: {
    requiresAction: number;
    pending: number;
    succeeded: number;
    failed: number;
    reversed: number;
    challengesPassed: number;
    challengesFailed: number;
    challengesAbandoned: number;
  };
}

/** Counters the service keeps over every request, whatever the log still holds. */
export interface ServiceCounters {
  /** Requests answered, test-data runs' own orders included. */
  requests: number;
  /** By documented route (its template; null for a path no route names), HTTP status and code. A 405 counts on the path's route. */
  byRoute: { route: string | null; httpStatus: number; code: number; count: number }[];
  /** What payments were taken: see {@link PaymentCounters}. */
  payments: PaymentCounters;
  durations: {
    /** Bucket edges in ms, the same for every service. */
    edgesMs: number[];
    order: DurationHistogram;
    payment: DurationHistogram;
    test: DurationHistogram;
  };
  /** Answers replayed under an `Idempotency-Key`; absent until one is. */
  replays?: number;
  /** Scenario failures by kind and by the name of the rule that gave them (a drawn decline has none); absent until one. */
  faults?: { byKind: Partial<Record<Fault["kind"], number>>; byRule: Record<string, number> };
  /** False when rebuilt from an older snapshot whose log had dropped records: the counts then start at its oldest record. */
  complete: boolean;
}

/** Options of the pieces forms. */
export interface PieceOptions {
  /** Bytes of UTF-8 each piece holds at least (a row is never split), but the last: a whole number from 1 to 2**30. Default 262144. */
  size?: number;
}

/** Text pieces of a snapshot or an export, from a copy taken when they were asked for. Leaving early (`break`, `return()`) frees the copy. */
export interface TextPieces extends IterableIterator<string> {
  /** How far the pieces have got, from 0 to 1 (1 once done). */
  readonly progress: number;
}

/** Options of Service.restoring. */
export interface RestoringOptions {
  /**
   * The snapshot text's length (its `.length`), when known: room for it is
   * made at once, so no push moves the text received before it (a copy of
   * tens of megabytes, each time the room would double). A RangeError when
   * the module's memory has no room for it; at most 2 ** 30.
   */
  length?: number;
}

/** A snapshot being received in pieces (Service.restoring()). */
export interface Restoring {
  /** The next piece of the snapshot's text. Throws as Service.restore does for damage it finds; the restore is then over. */
  push(piece: string): void;
  /**
   * Once the last piece is in: does the work finish() would, a bounded
   * step at a time (a few ms each), for about `budgetMs` (default 8; at
   * least one step). True once finish() has only the Service to hand over.
   * No piece may follow. Throws as Service.restore does for damage the
   * checks find (the restore is then over); a RangeError for a budget that
   * is not a number of ms from 0 up.
   */
  step(budgetMs?: number): boolean;
  /** Whether step() has done all the work finish() would. */
  readonly done: boolean;
  /** The restored Service (after the steps left). Throws as Service.restore does for a damaged snapshot. */
  finish(): Service;
  /** Gives up and frees what was received. */
  abandon(): void;
  /** UTF-16 code units pushed so far. */
  readonly received: number;
}

/** An isolated instance of the service, with its own orders, payments and log. */
export class Service {
  /** Throws a TypeError or RangeError naming the option when an option is wrong. */
  constructor(options?: ServiceOptions);
  /** Answers a request with its envelope. After free(), a 503 envelope. Throws only NetworkFaultError, when a scenario's network fault loses the answer. */
  handle(method: string, path: ChallengePath, body?: RequestBody, headers?: RequestHeaders): string | Envelope;
  handle(method: string, path: string, body?: RequestBody, headers?: RequestHeaders): Envelope;
  /** Answers a request with status, headers and envelope. Never throws; after free(), status 503. A scenario's request-phase network fault answers the NetworkFaultResponse shape (status 0, body ""): check `fault`. */
  request(method: string, path: ChallengePath, body?: RequestBody, headers?: RequestHeaders): PageResponse;
  request(method: string, path: string, body?: RequestBody, headers?: RequestHeaders): HttpResponse;
  /** Replaces the scenario (progress restarts) or clears it with null. Throws a TypeError or RangeError naming the document's path; nothing changes then. */
  setScenario(scenario: ScenarioDocument | ScenarioPreset | string | null): void;
  /** The scenario in force and its progress, or null. */
  readonly scenario: ScenarioState | null;
  /** Log records, oldest first; with `after`, only those with a larger seq. */
  logs(after?: number): LogRecord[];
  /**
   * The events (every state change, the newest 10,000 kept), oldest first;
   * with `after`, those after that event. Reading them turns webhooks on:
   * snapshots then keep the events.
   * Throws a TypeError naming `after` for a non-string, a RangeError for an
   * id that is not one of this service's events.
   */
  events(options?: EventsOptions): WebhookEvent[];
  clearLogs(): void;
  /** How many records the log has dropped to stay within logCapacity. */
  readonly droppedLogs: number;
  /**
   * What the service counted over every request since it started (a new
   * service, or a reset, starts at zero): never bounded by the log, kept in
   * snapshots. Plain data, a fresh copy each call. `counters().payments.approved` is how many
   * payments were taken.
   */
  counters(): ServiceCounters;
  /** The seed in use: pass it to a new Service to replay this one. */
  readonly seed: number;
  /** The service's current time, Unix ms. */
  readonly now: number;
  /**
   * Answers a REQUIRES_ACTION payment's challenge now, as the buyer would on
   * its page: "pass" makes it SUCCESS, "fail" or "abandon" FAILED
   * (authentication_required unless the rule names another code). Returns
   * the payment as it is now. A wrong outcome throws a TypeError naming
   * `outcome`; an unknown payment, or one that awaits no challenge, a
   * RangeError naming `paymentId` and the status it has.
   */
  completeChallenge(paymentId: string, outcome: ChallengeOutcome): Payment;
  /** The payments awaiting a challenge (REQUIRES_ACTION), in id order. */
  challenges(): RequiresActionPayment[];
  /** The payments in progress: awaiting a challenge (REQUIRES_ACTION) or the service's clock (PENDING), in id order. What a page lists as "in progress", whoever paid. */
  inProgress(): Array<RequiresActionPayment | PendingPayment>;
  /** Whether the clock is virtual (started with `virtualTime`, or restored from a snapshot of such a service): time moves only with requests' simulated latency and `advance`. False on the wall clock. */
  readonly virtualClock: boolean;
  /** When the soonest plan comes due (a pending payment, a challenge answering itself, a reversal), Unix ms; null when none is. */
  readonly nextDueAt: number | null;
  /** Moves a virtual clock on by `ms`, and resolves every payment's plan that came due, in due order; the wall clock ignores `ms` and still resolves what is due now. Throws a TypeError for a non-number, a RangeError for `ms` that is not a whole number, 0 or more, or that would carry the clock past 8640000000000000 (the last time a Date holds). */
  advance(ms: number): void;
  /**
   * Registers a webhook endpoint. Every later state change of a type it
   * wants is delivered to it, signed, retried on Stripe-like backoff on the
   * service's clock. A bad field throws a TypeError or RangeError naming
   * it, and changes nothing.
   */
  addWebhook(spec: WebhookSpec): WebhookEndpoint;
  /** Removes an endpoint: nothing more is sent to it. False when there is no such endpoint. */
  removeWebhook(id: string): boolean;
  /** The endpoints, each with its deliveries and their attempts. */
  webhooks(): WebhookEndpoint[];
  /** Sends a delivery again now, whatever its state; a RangeError for an unknown id. */
  resendDelivery(id: string): WebhookDelivery;
  /**
   * Resolves once no delivery attempt is in flight and none is due now: await
   * it after a request, `advance()` or a resend, before checking what a
   * handler received. Retries due later on the service's clock are not
   * waited for.
   */
  webhooksSettled(): Promise<void>;
  /**
   * The whole state (orders, payments, log, random state, clock, settings) as compact JSON text,
   * for `Service.restore`. Its inner shape is not an API and changes between versions: ask
   * `counters().payments` what payments were taken, not the snapshot's `payments.by_id`.
   */
  snapshot(): string;
  /** A service that continues exactly where the snapshot's left off. Throws a TypeError (wrong type, missing field, not a snapshot) or a RangeError (out of range, inconsistent) naming the first bad field, such as `snapshot.clock`. */
  static restore(snapshot: string): Service;
  /**
   * snapshot() in pieces, for a page that must not block: `for (const piece
   * of service.snapshotPieces())`, with a pause between pieces. The pieces
   * joined are exactly the text snapshot() returns at this call; requests
   * served meanwhile do not change them (the module copies the state, in
   * its compact form, when this is called). Each piece holds at least
   * `size` bytes of UTF-8 (default 262144), but the last.
   */
  snapshotPieces(options?: PieceOptions): TextPieces;
  /**
   * A restore fed in pieces: `push` each piece of a snapshot's text in
   * order (they may split it anywhere), then `finish()` for the Service.
   * Nothing else changes meanwhile. A damaged snapshot throws, from the
   * push that finds it or from finish, the TypeError or RangeError that
   * Service.restore throws.
   */
  static restoring(options?: RestoringOptions): Restoring;
  /** The next `count` payment attempts (default 1) succeed or fail whatever the draw; count 0 clears. An X-Sim-Outcome header still decides its own request. */
  forceNext(outcome: "success" | "failure", count?: number): void;
  /**
   * The run so far as the text of a runnable test (docs/copy-as-test.md):
   * "vitest" (createFetch), "playwright" (mockOrderpay) or "curl" (a bash
   * script against `orderpay serve`). A bad format is a TypeError naming
   * it; a run past the journal's bound (10,000 steps), a restored Service
   * not given its run (resumeRun), or a replay that answers otherwise, an Error.
   */
  exportTest(format: TestFormat, options?: ExportTestOptions): string;
  /**
   * The run so far as a pact of Pact specification V3 (docs/pact.md): each
   * request and its answer an interaction, ids and times matched by form,
   * what the run had set up (orders, payments, outcomes, a scenario's rule)
   * as provider states that `orderpay serve` sets up. Refused as exportTest is.
   */
  exportPact(options: ExportPactOptions): Pact;
  /** The run so far, as plain data that JSON keeps (a copy of its own each call): what exportTest renders. Save it with a snapshot for resumeRun(). */
  run(): Run;
  /**
   * Gives a Service just made by Service.restore the run its snapshot was saved with, so that exportTest works again.
   * The run is copied and checked first: one that is not plain data of run()'s shape is a TypeError naming the field, and changes nothing.
   */
  resumeRun(run: Run): void;
  /** The settings in force (options as given, defaults filled in). */
  readonly settings: ServiceSettings;
  /** What forceNext still has to do, or null. */
  readonly forced: { outcome: "success" | "failure"; remaining: number } | null;
  /** The spans of the requests, oldest first (bounded like the log). */
  spans(): Span[];
  /** The spans as OTLP/JSON, ready to POST to a collector's /v1/traces. */
  exportOtlp(): OtlpTraces;
  /** The log records as NDJSON: one JSON object a line. */
  exportNdjson(): string;
  /** exportNdjson() in pieces of whole lines, fixed at this call (see snapshotPieces). */
  exportNdjsonPieces(options?: PieceOptions): TextPieces;
  /** exportOtlp() as JSON text in pieces, fixed at this call (see snapshotPieces): `JSON.parse` of the pieces joined deep-equals exportOtlp(). */
  exportOtlpPieces(options?: PieceOptions): TextPieces;
  /**
   * Releases the instance's memory now, rather than when it is garbage
   * collected. Afterwards handle and request answer a 503 envelope, and the
   * other methods and getters throw a TypeError saying it was freed. A
   * second call does nothing.
   */
  free(): void;
}

/** `handle` on the module's default instance. */
export function handle(method: string, path: ChallengePath, body?: RequestBody, headers?: RequestHeaders): string | Envelope;
export function handle(method: string, path: string, body?: RequestBody, headers?: RequestHeaders): Envelope;
/** `request` on the module's default instance. */
export function request(method: string, path: ChallengePath, body?: RequestBody, headers?: RequestHeaders): PageResponse;
export function request(method: string, path: string, body?: RequestBody, headers?: RequestHeaders): HttpResponse;
/** `logs` of the module's default instance. */
export function logs(after?: number): LogRecord[];
/** `clearLogs` of the module's default instance. */
export function clearLogs(): void;
/** The OpenAPI 3.1 document of the eight endpoints and the challenge page, as JSON text. */
export function openapi(): string;

/** A trace header the service reads: the trace id from the first valid of X-B3-TraceId, b3, traceparent. */
export type TraceHeaderName = "X-B3-TraceId" | "X-B3-SpanId" | "b3" | "traceparent";

/** What the service will make of a request's trace headers. */
export interface TraceHeadersVerdict {
  /** The header the trace id will come from, or null when the service makes a fresh one. */
  decides: "X-B3-TraceId" | "b3" | "traceparent" | null;
  /** Each trace header given that the service will ignore as ill-formed, and why. */
  problems: Partial<Record<TraceHeaderName, string>>;
}

/**
 * Checks trace headers by the service's own rules, before sending: which
 * one decides the trace id, and why each ill-formed one is ignored (the service never
 * refuses a request over tracing). Names in upper or lower case; a Headers works too.
 * Needs the WebAssembly module loaded (`await init()` in a browser with the slim entry).
 */
export function traceHeaders(headers: Record<string, string> | Headers): TraceHeadersVerdict;

export type InitInput = RequestInfo | URL | Response | BufferSource | WebAssembly.Module;
export type SyncInitInput = BufferSource | WebAssembly.Module;

/** What init resolves with. */
export interface InitOutput {
  readonly memory: WebAssembly.Memory;
}

/**
 * Loads the WebAssembly module: by default `orderpay_bg.wasm` beside this
 * file; or give its URL, a Response, its bytes or a compiled module. Await
 * it once in a browser before making a Service; in Node it is done on import.
 */
export default function init(module_or_path?: { module_or_path: InitInput | Promise<InitInput> } | InitInput | Promise<InitInput>): Promise<InitOutput>;

/** Loads the WebAssembly module from its bytes or a compiled module, at once. */
export function initSync(module: { module: SyncInitInput } | SyncInitInput): InitOutput;

/** The formats of Service.exportTest. */
export type TestFormat = "vitest" | "playwright" | "curl";

/** The options of Service.exportTest. */
export interface ExportTestOptions {
  /** The test's title (default "an orderpay run, copied as a test"). */
  name?: string;
  /** Playwright: the page that runs the requests' fetch, relative to your baseURL (default: a blank page the test answers itself). */
  page?: string;
}

/** The options of Service.exportPact: the pacticipants' names. */
export interface ExportPactOptions {
  /** The app whose run it is (the pact's consumer). */
  consumer: string;
  /** The service it called (the pact's provider), verified with `orderpay serve`. */
  provider: string;
}

/** A pact file's content (Pact specification V3): write it as JSON to pacts/CONSUMER-PROVIDER.json. */
export interface Pact {
  consumer: { name: string };
  provider: { name: string };
  interactions: Array<{
    description: string;
    providerStates: Array<{ name: string; params?: Record<string, unknown> }>;
    request: { method: string; path: string; query?: Record<string, string[]>; headers?: Record<string, string>; body?: unknown; generators?: Record<string, unknown> };
    response: { status: number; headers: Record<string, string>; body: unknown; matchingRules?: { body: Record<string, unknown> } };
  }>;
  metadata: { pactSpecification: { version: "3.0.0" } };
}

/** A request of a run, as the caller sent it and as the service answered. */
export interface RunRequest {
  kind: "request";
  /** The service's time (epoch ms) when it arrived. */
  at: number;
  method: string;
  path: string;
  /** The headers sent, by lower-case name. */
  headers: Record<string, string>;
  body: string | null;
  answer: {
    status: number;
    headers: Record<string, string>;
    body: string;
    fault?: Record<string, string | number>;
  };
}

/** A call of a run outside a request: advance, setScenario, forceNext, completeChallenge. */
export type RunCall =
  | { kind: "advance"; at: number; ms: number }
  | { kind: "scenario"; at: number; scenario: ScenarioDocument | ScenarioPreset | string | null }
  | { kind: "force"; at: number; outcome: "success" | "failure"; count: number }
  | { kind: "challenge"; at: number; paymentId: string; outcome: ChallengeOutcome };

/** What a Service was asked since it was made (Service.run()). */
export interface Run {
  /** The constructor's options as given (webhooks left out), with the seed and `virtualTime`, the clock's time at the start. */
  options: Omit<ServiceOptions, "webhooks"> & { seed: number; virtualTime: number };
  /** The clock the run was on. */
  clock: "virtual" | "wall";
  steps: Array<RunRequest | RunCall>;
  /** Steps not kept past the bound. */
  lost: number;
  /** The most steps kept. */
  bound: number;
  /** Present when the run began at a Service.restore with no run given: exportTest refuses it. */
  restored?: true;
}
