// A Response whose body is the service's answer as text, kept as text
// until it is read. `new Response(text)` makes a ReadableStream at once,
// and `json()` or `text()` then read the text back through that stream: in
// Node and in Chromium that was more than half the time of a createFetch
// request, twice the service's own work. Here `json()`, `text()` and
// `arrayBuffer()` answer from the text; whoever asks for the stream
// (`body`), another form (`blob()`, `formData()`, `bytes()`) or reads a
// second time is handed to a Response made with the same text and headers,
// which then holds the body, so every read keeps fetch's rules.
//
// It is a subclass of the global Response, so `instanceof Response`,
// status, headers and every getter are the platform's own. Code that reads
// a Response's body without its methods (a Service Worker's
// `respondWith`, `cache.put`) sees none: createFetch answers with plain
// Responses inside a Service Worker. Internal: the package does not export
// this file.

/** The subclass made for the last global Response seen (a test runner may swap it). */
let madeFor = null;
let Made = null;

/** Whether this realm is a Service Worker's, whose `respondWith` reads bodies directly. */
export function inServiceWorker() {
  const Scope = globalThis.ServiceWorkerGlobalScope;
  return typeof Scope === "function" && globalThis instanceof Scope;
}

/** A Response of `status`, `statusText` and `headers` (as for `new Response`) whose body is `text`, with `url`. */
export function textResponse(text, init, url) {
  const Base = globalThis.Response;
  if (Base !== madeFor) {
    Made = subclassOf(Base);
    madeFor = Base;
  }
  return new Made(text, init, url);
}

// eslint-disable-next-line max-lines-per-function -- its body is one class over the host's own Response, made when the host is known; each method is short
function subclassOf(Base) {
  const encoder = new TextEncoder();
  // Named Response, as `constructor.name` and stack traces show it.
  const Made = class Response extends Base {
    #text;
    #url;
    /** Whether the text was read here. */
    #read = false;
    /** The Response that holds the body once someone needed more than the text. */
    #full = null;

    constructor(text, init, url) {
      super(null, init);
      this.#text = text;
      this.#url = url;
    }

    /** A real fetch's Response knows its URL; one made by hand does not. */
    get url() {
      return this.#url;
    }

    get body() {
      return this.#held().body;
    }

    get bodyUsed() {
      return this.#full === null ? this.#read : this.#full.bodyUsed;
    }

    text() {
      return this.#takeText() ? Promise.resolve(this.#text) : this.#held().text();
    }

    json() {
      if (!this.#takeText()) return this.#held().json();
      try {
        return Promise.resolve(JSON.parse(this.#text));
      } catch (error) {
        return Promise.reject(error);
      }
    }

    arrayBuffer() {
      return this.#takeText() ? Promise.resolve(encoder.encode(this.#text).buffer) : this.#held().arrayBuffer();
    }

    blob() {
      return this.#held().blob();
    }

    formData() {
      return this.#held().formData();
    }

    bytes() {
      return this.#held().bytes();
    }

    clone() {
      if (this.#full !== null || this.#read) {
        const copy = this.#held().clone();
        Object.defineProperty(copy, "url", { value: this.#url, configurable: true });
        return copy;
      }
      return new Made(this.#text, { status: this.status, statusText: this.statusText, headers: this.headers }, this.#url);
    }

    /** True once, for the first read, when no Response holds the body yet. */
    #takeText() {
      if (this.#full !== null || this.#read) return false;
      this.#read = true;
      return true;
    }

    /**
     * The Response that holds the body from now on, made with the same
     * text and headers; if the text was already read here, its stream is
     * read too, so it answers as a used body does.
     */
    #held() {
      if (this.#full === null) {
        const full = new Base(this.#text, { status: this.status, statusText: this.statusText, headers: this.headers });
        Object.defineProperty(full, "url", { value: this.#url, configurable: true });
        if (this.#read) full.arrayBuffer().catch(() => {});
        this.#full = full;
      }
      return this.#full;
    }
  };
  // Only the forms this platform's Response has.
  if (typeof Base.prototype.bytes !== "function") delete Made.prototype.bytes;
  return Made;
}
