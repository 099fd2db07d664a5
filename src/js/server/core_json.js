// The core's JSON text in the server's answers: /logs, /spans, /otlp and
// the live stream place what the WebAssembly core wrote into their JSON as
// it is, with no parse and stringify per answer or per client.
import { rawOf } from "../service.js";

/** The log records after `after` (all when null), as the core's JSON array. */
export function logsText(service, after) {
  return rawOf(service).logsJson(after ?? undefined);
}

/**
 * At most `limit` records after `after`: `last`, the seq of the last of
 * them (`after` when there is none), `count`, how many, and `text`, their
 * JSON array.
 */
export function logsPage(service, after, limit) {
  const page = rawOf(service).logsPage(after, limit);
  const space = page.indexOf(" ");
  const split = page.indexOf("\n", space);
  return { last: Number(page.slice(0, space)), count: Number(page.slice(space + 1, split)), text: page.slice(split + 1) };
}

/**
 * The spans (of the trace `traceId` names, unless null) as the core's JSON
 * array. The core checks the id: a TypeError whose message names traceId
 * for one it never gives.
 */
export function spansText(service, traceId) {
  return rawOf(service).spansJson(traceId ?? undefined);
}

/** The spans as the core's OTLP/JSON text. */
export function otlpText(service) {
  return rawOf(service).otlpJson();
}

/** The counters, as the core's JSON text. */
export function countersText(service) {
  return rawOf(service).counters();
}

/** The pending forceNext (or null), as the core's JSON text. */
export function forcedText(service) {
  return rawOf(service).forced();
}

/** The payments in progress (REQUIRES_ACTION or PENDING), as the core's JSON text. */
export function inProgressText(service) {
  return rawOf(service).challenges(true);
}

/**
 * An object's JSON text from [key, JSON text] pairs, in order: what
 * JSON.stringify writes of the object the texts stand for. Keys are the
 * server's own names, which need no escaping.
 */
export function objectText(fields) {
  let text = "{";
  for (const [key, value] of fields) text += `${text.length > 1 ? "," : ""}"${key}":${value}`;
  return `${text}}`;
}

/** The {code: 0, msg: "success", data} envelope around data given as JSON text. */
export function successText(data) {
  return objectText([["code", "0"], ["msg", '"success"'], ["data", data]]);
}
