// The webhooks over the admin API (/__orderpay/webhooks…, per session):
// the endpoints listed, added (a URL only: a handler is a function, which
// only the JS API takes) and removed, a delivery resent, and the events.
// The service checks each field and names it; a refusal changes nothing.
// The log's stream keeps /__orderpay/events, so the events are listed at
// /__orderpay/webhooks/events. admin.js puts these handlers in its table.
import { sendData, sendError } from "./reply.js";

/** What a GET of the endpoints answers: each with its deliveries and their attempts. */
export function listWebhooks(ctx, req, res) {
  sendData(res, { webhooks: ctx.instance.service.webhooks() });
}

/** POST /webhooks: `{url, secret?, events?, header?}`; the endpoint made, with its id and secret. */
export function addWebhook(ctx, req, res, body) {
  if (Object.hasOwn(body, "handler")) {
    return sendError(res, 400, "handler: over HTTP an endpoint is a url; a handler function is given in JS (new Service({ webhooks: [{ handler }] }))");
  }
  let webhook;
  try {
    webhook = ctx.instance.service.addWebhook(body);
  } catch (error) {
    return sendError(res, 400, error.message);
  }
  ctx.changed();
  sendData(res, { webhook });
}

/** DELETE /webhooks/{id}: nothing more is sent to it; 404 when there is no such endpoint. */
export function removeWebhook(ctx, req, res, params, { id }) {
  const service = ctx.instance.service;
  if (!service.removeWebhook(id)) {
    const ids = service.webhooks().map((endpoint) => endpoint.id);
    return sendError(res, 404, `id: no endpoint ${JSON.stringify(id)}; ${ids.length ? `the endpoints are ${ids.join(", ")}` : "there is none"}`);
  }
  ctx.changed();
  sendData(res, { removed: id });
}

/**
 * POST /webhooks/deliveries/{id}/resend: a new attempt now; answers once
 * it (and whatever else it set going) is settled, with the delivery then.
 */
export async function resendDelivery(ctx, req, res, params, { id }) {
  const service = ctx.instance.service;
  try {
    service.resendDelivery(id);
  } catch (error) {
    return sendError(res, error instanceof RangeError ? 404 : 400, error.message);
  }
  ctx.changed();
  await service.webhooksSettled();
  const delivery = service.webhooks().flatMap((endpoint) => endpoint.deliveries ?? []).find((d) => d.id === id) ?? null;
  sendData(res, { delivery });
}

/** GET /webhooks/events?after=evt_…: the events after that one (all without it). Reading them turns webhooks on. */
export function listEvents(ctx, req, res, params) {
  const after = params.get("after") ?? undefined;
  const service = ctx.instance.service;
  let events;
  try {
    events = service.events({ after });
  } catch (error) {
    return sendError(res, 400, error.message);
  }
  // The first read turns webhooks on: the saved state then holds the events.
  ctx.state?.touch();
  sendData(res, { events, now: service.now });
}
