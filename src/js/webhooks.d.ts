// orderpay/webhooks: Stripe's webhook signature scheme, to sign a payload and
// to verify a delivery in a user's own tests (docs/webhooks.md).

/** The header orderpay signs under. */
export declare const SIGNATURE_HEADER: "Orderpay-Signature";
/** The header name Stripe uses for the same value (`scheme: "stripe"`). */
export declare const STRIPE_SIGNATURE_HEADER: "Stripe-Signature";

/**
 * Which check refused a signature:
 * - `"mismatch"`: no v1 value is the HMAC of this body and timestamp under
 *   the secret(s) given: the body was changed (or re-serialised after
 *   parsing), or the secret is not the signer's; HMAC cannot tell which;
 * - `"stale"`: the signature holds, but its timestamp is further than the
 *   tolerance from now, in the past or the future;
 * - `"malformed header"`: the header is not `t=<seconds>,v1=<hex>[,v1=<hex>]`;
 * - `"no signature"`: no header, or one with no v1 value.
 */
export type WebhookSignatureReason = "mismatch" | "stale" | "malformed header" | "no signature";

/** A signature that does not hold; `reason` says which check refused it. */
export declare class WebhookSignatureError extends Error {
  constructor(reason: WebhookSignatureReason, message: string);
  readonly name: "WebhookSignatureError";
  readonly reason: WebhookSignatureReason;
}

/** The header's name: `Orderpay-Signature` by default, `Stripe-Signature` with `scheme: "stripe"`. */
export type SignatureHeaderName = typeof SIGNATURE_HEADER | typeof STRIPE_SIGNATURE_HEADER;

interface SignTiming {
  /** The signature's time in whole unix seconds. Default `Math.floor(Date.now() / 1000)`. */
  timestamp?: number;
  /**
   * The header name returned as `headerName`: `"orderpay"` (the default)
   * names `Orderpay-Signature`, `"stripe"` names `Stripe-Signature`. The
   * header's value is the same either way.
   */
  scheme?: "orderpay" | "stripe";
}

export type SignWebhookOptions =
  | (SignTiming & {
      /** The signing secret, used as its UTF-8 bytes (the whole `whsec_…` string). */
      secret: string;
      secrets?: never;
    })
  | (SignTiming & {
      /** While a secret is rotated: one v1 value per secret, in this order. */
      secrets: readonly string[];
      secret?: never;
    });

export interface SignedWebhook {
  /** The header's value: `t=<timestamp>,v1=<hex>` (one v1 per secret). */
  header: string;
  /** The header's name, after `scheme`. */
  headerName: SignatureHeaderName;
  /** The body that was signed: the payload as given, or its JSON.stringify. Send exactly this. */
  body: string;
  /** The unix seconds signed. */
  timestamp: number;
}

export interface VerifyWebhookOptions {
  /**
   * How far, in seconds, the timestamp may be from `now`, either way.
   * Default 300 (Stripe's). `Infinity` turns the check off (stripe-node
   * uses 0 for that; here 0 means the very second).
   */
  tolerance?: number;
  /** Now, in whole unix seconds, for a test's own clock. Default `Math.floor(Date.now() / 1000)`. */
  now?: number;
}

/** A body exactly as received. A parsed object is refused with a TypeError. */
export type RawWebhookBody = string | Uint8Array | ArrayBuffer | ArrayBufferView;

/**
 * Signs a payload (a string as is, anything else through JSON.stringify)
 * as orderpay and Stripe sign a webhook: HMAC-SHA256 of `"<t>.<body>"`.
 */
export declare function signWebhook(payload: string | object | number | boolean | null, options: SignWebhookOptions): Promise<SignedWebhook>;

/**
 * Verifies a delivery from its raw body, its signature header's value and
 * the secret (or the secrets while one is rotated: any one may hold), and
 * resolves to the body parsed as JSON. Rejects with a WebhookSignatureError
 * when the signature does not hold, a TypeError when an argument is of the
 * wrong kind (a parsed body, a missing secret), a SyntaxError when a body
 * that holds is not JSON.
 */
export declare function verifyWebhook<Event = unknown>(
  rawBody: RawWebhookBody,
  header: string | readonly string[] | null | undefined,
  secret: string | readonly string[],
  options?: VerifyWebhookOptions,
): Promise<Event>;
