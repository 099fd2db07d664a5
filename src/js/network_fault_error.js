// The error handle() throws when a scenario's network fault loses the
// answer: handle() has no network, so it reports the fault the way fetch
// reports one, by a TypeError, with the fault itself on `.fault`.

/** A scenario's network fault: `.fault` is `{ kind: "network", rule, fault, ms, phase }`. */
export class NetworkFaultError extends TypeError {
  constructor(fault) {
    super(`network fault: ${fault?.fault} in the ${fault?.phase} (scenario rule ${JSON.stringify(fault?.rule)})`);
    this.name = "NetworkFaultError";
    this.fault = fault;
  }
}
