// The network faults of a scenario (`then: {kind: "network"}`) as a real
// server shows them on the socket (fault_as_fetch.js shows them as fetch
// does, for the adapters with no socket): what a client's HTTP stack meets when a
// payment gateway's connection breaks. WireMock has four of these
// (CONNECTION_RESET_BY_PEER, EMPTY_RESPONSE, ...); a bounded hang and a
// body shorter than its content-length are what real clients hang or
// break on, and what their timeouts are for.
//
// - reset, error: the connection is reset (TCP RST); Node's fetch rejects
//   with `TypeError: fetch failed`, its cause ECONNRESET.
// - empty: the connection closes with no answer at all.
// - short: the status and headers with the whole body's content-length,
//   then half the body, then the connection closes.
// - hang: no answer until the client goes, or until `ms` passes; then the
//   connection closes with no answer.
// - dribble: the whole answer, its body in small chunks spread over `ms`.

/** How many pieces a dribbled body is cut into, at most. */
const DRIBBLE_PIECES = 10;

/**
 * The faults in progress on one server (hangs and dribbles), so that a
 * stopping server ends them at once rather than waiting them out.
 */
export class FaultWriter {
  #pending = new Set();

  /**
   * Writes `fault` ({kind, ms}) on the connection of `res` in place of the
   * answer. `ms` is the scenario's, or the core's default for the fault
   * (src/sim/scenario/parse.rs): the server keeps none of its own. `answer` ({status, headers, text}) is the service's, for the
   * faults that send part of it (short, dribble); null when nothing ran.
   */
  write(res, fault, answer) {
    const socket = res.socket;
    if (!socket || socket.destroyed) return;
    const ms = fault.ms;
    switch (fault.kind) {
      case "empty":
        return void socket.end();
      case "short":
        return this.#short(res, answer);
      case "hang":
        return this.#hang(res, ms);
      case "dribble":
        return this.#dribble(res, answer, ms);
      default:
        // reset, error, and any kind this server does not know: the connection breaks.
        return void socket.resetAndDestroy();
    }
  }

  /** Ends every hang and dribble in progress: their connections close. */
  stop() {
    for (const end of [...this.#pending]) end();
  }

  /** Runs `end` when the connection closes or stop() is called, whichever is first; returns the end to call when done. */
  #track(res, end) {
    let ended = false;
    const finish = () => {
      if (ended) return;
      ended = true;
      this.#pending.delete(finish);
      res.socket?.off("close", finish);
      end();
    };
    this.#pending.add(finish);
    res.socket.once("close", finish);
    return finish;
  }

  #short(res, answer) {
    const body = Buffer.from(answer?.text ?? "");
    res.writeHead(answer?.status ?? 200, withLength(answer?.headers, body.length));
    const socket = res.socket;
    res.write(body.subarray(0, Math.floor(body.length / 2)), () => socket.end());
  }

  #hang(res, ms) {
    const socket = res.socket;
    const timer = setTimeout(() => finish(), ms);
    const finish = this.#track(res, () => {
      clearTimeout(timer);
      if (!socket.destroyed) socket.end();
    });
  }

  #dribble(res, answer, ms) {
    const body = Buffer.from(answer?.text ?? "");
    const pieces = Math.max(1, Math.min(DRIBBLE_PIECES, body.length));
    const size = Math.ceil(body.length / pieces);
    const gap = pieces > 1 ? ms / (pieces - 1) : ms;
    res.writeHead(answer?.status ?? 200, withLength(answer?.headers, body.length));
    let sent = 0;
    let timer = null;
    const finish = this.#track(res, () => {
      clearTimeout(timer);
      if (sent < body.length && !res.socket?.destroyed) res.socket?.end();
    });
    const next = () => {
      const piece = body.subarray(sent, sent + size);
      sent += piece.length;
      if (sent >= body.length) {
        res.end(piece);
        finish();
      } else {
        res.write(piece);
        timer = setTimeout(next, gap);
      }
    };
    // With one piece, the whole body comes at the end of `ms`.
    if (pieces > 1) next();
    else timer = setTimeout(next, gap);
  }
}

/** The answer's headers, its content-length that of the whole body. */
function withLength(headers, length) {
  return { ...headers, "content-length": String(length) };
}
