// A run as a shell script of curl calls (service.exportTest("curl")) against
// `orderpay serve`: a session of its own, reset to the run's options on a
// virtual clock from the run's start, then each step, its clock moves
// through POST /__orderpay/advance, each checked by the payments' changes
// the session's log holds after it (GET /__orderpay/logs?after=). Each answer is checked as the page
// showed it; the first difference stops the script with exit 1. The plan
// is test_plan.js's. Internal: the package does not export this file.
import { clockNote, js, stepTitle } from "./test_plan.js";

/**
 * Quoted for bash: inside single quotes, nothing is special but the quote
 * itself. Text with a control character (a line break) is quoted as
 * $'...' with the character escaped, so that each line of the script is
 * the script's own.
 */
function sh(value) {
  const text = String(value);
  const chars = [...text];
  if (!chars.some(isControl)) return `'${text.replace(/'/g, "'\\''")}'`;
  const escaped = chars.map((c) => (isControl(c) ? `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}` : c === "\\" || c === "'" ? `\\${c}` : c));
  return `$'${escaped.join("")}'`;
}

/** A control character: U+0000 to U+001F, or DEL. */
function isControl(c) {
  const code = c.charCodeAt(0);
  return code < 32 || code === 127;
}

/** curl's exit code for each lost connection (docs/network-faults.md); a hang is given up after --max-time. */
const EXITS = { reset: "56", error: "56", empty: "52", short: "18", hang: "28|52" };

const HELPERS = String.raw`set -euo pipefail
URL="${"$"}{ORDERPAY_URL:-http://127.0.0.1:4010}"
SESSION="${"$"}{ORDERPAY_SESSION:-copied-test}"
API="$URL/s/$SESSION"
A="$URL/__orderpay/sessions/$SESSION"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
step=0
fail() { echo "step $step: $*" >&2; exit 1; }
# The admin API's token, for a server beyond loopback (--admin-token).
auth=()
if [ -n "${"$"}{ORDERPAY_ADMIN_TOKEN:-}" ]; then auth=(-H "authorization: Bearer $ORDERPAY_ADMIN_TOKEN"); fi
# An admin call that must answer 200; its body is left in $out/a.
admin() { local s; s=$(curl -sS ${"$"}{auth[@]+"${"$"}{auth[@]}"} -o "$out/a" -w '%{http_code}' "$@") || fail "curl failed"; [ "$s" = 200 ] || fail "admin answered $s: $(cat "$out/a")"; }
# A request to the gateway: its status into $status, its body into $body.
send() { local method=$1 path=$2; shift 2; status=$(curl -sS -o "$out/b" -D "$out/h" -w '%{http_code}' -X "$method" "$API$path" "$@") || fail "curl failed"; body=$(cat "$out/b"); }
# A request whose answer is lost (a network fault): curl must exit with one of the codes in $1.
lost() { local want=$1 method=$2 path=$3 code=0; shift 3; curl -sS -o /dev/null --max-time 2 -X "$method" "$API$path" "$@" 2>/dev/null || code=$?; [[ "$code" =~ ^($want)$ ]] || fail "expected the answer lost (curl exit $want), got exit $code"; }
is() { [ "$status" = "$1" ] || fail "expected HTTP $1, got $status: $body"; }
has() { case "$body" in *"$1"*) ;; *) fail "expected $1 in $body" ;; esac; }
header() { grep -qi "^$1: $2" "$out/h" || fail "expected the header $1: $2"; }
# What a clock move changed: the payments' changes logged after record $1, exactly those given ("paymentId from to" each).
changes() { local after=$1 n c id from to; shift; admin "$A/logs?after=$after"; n=$(grep -o '"stage":"payment"' "$out/a" | wc -l || true); [ "$n" -eq $# ] || fail "expected $# payment changes, got $n: $(cat "$out/a")"; for c in "$@"; do read -r id from to <<<"$c"; grep -qF "\"paymentId\":\"$id\",\"from\":\"$from\",\"to\":\"$to\"" "$out/a" || fail "expected the change $id $from → $to: $(cat "$out/a")"; done; }
`;

/** The curl options of a request: its headers and body. */
function requestArgs(step) {
  const args = Object.entries(step.headers).map(([name, value]) => `-H ${sh(`${name}: ${value}`)}`);
  if (step.body !== null) args.push(`--data-raw ${sh(step.body)}`);
  return args.join(" ");
}

/** A JSON member as the service writes it, for has(). */
const member = (key, value) => sh(`${js(key)}:${js(value)}`);

function requestLines(step) {
  const call = `${sh(step.method)} ${sh(step.path)} ${requestArgs(step)}`.trimEnd();
  const { facts } = step;
  if (facts.network !== undefined && EXITS[facts.network] !== undefined) return [`lost ${sh(EXITS[facts.network])} ${call}`];
  const lines = [`send ${call}`, `is ${sh(facts.status)}`];
  if (facts.html) lines.push(`header content-type text/html`);
  if (facts.code !== undefined) lines.push(`has ${member("code", facts.code)}`, `has ${member("msg", facts.msg)}`);
  for (const key of ["orderId", "paymentId"]) if (facts[key] !== undefined) lines.push(`has ${member(key, facts[key])}`);
  if (facts.dataStatus !== undefined) lines.push(`has ${member("status", facts.dataStatus)}`);
  if (facts.failureCode !== undefined) lines.push(`has ${member("failureCode", facts.failureCode)}`);
  if (facts.declineCode !== undefined) lines.push(`header x-orderpay-decline-code ${sh(facts.declineCode)}`);
  if (facts.replayed) lines.push(`header idempotent-replayed true`);
  return lines;
}

function stepLines(step) {
  switch (step.kind) {
    case "request":
      return requestLines(step);
    case "advance":
      return [`admin -X POST "$A/advance" -d ${sh(js({ ms: step.ms }))}`, changesLine(step.moved)];
    case "scenario":
      return step.scenario === null ? [`admin -X DELETE "$A/scenario"`] : [`admin -X PUT "$A/scenario" -d ${sh(js(step.scenario))}`];
    case "force":
      return [`admin -X POST "$A/force-next" -d ${sh(js({ outcome: step.outcome, count: step.count }))}`];
    case "challenge":
      return [
        `admin -X POST "$A/challenges/"${sh(step.paymentId)} -d ${sh(js({ outcome: step.outcome }))}`,
        ...Object.entries(step.payment).map(([key, value]) => `grep -qF ${member(key, value)} "$out/a" || fail ${sh(`expected the challenged payment's ${key} ${value}`)}`),
      ];
    default:
      return [];
  }
}

/** The check of what a clock move changed: the changes as arguments of changes(). */
const changesLine = (moved) => [`changes ${moved.after}`, ...moved.changes.map((change) => sh(change.replace(" → ", " ")))].join(" ");

/**
 * The script's text. Its steps are numbered as the JS copies number them,
 * and $step is set before each (its clock move and admin calls included):
 * a failure names the same step.
 */
export function curlTest(plan) {
  const lines = [];
  plan.steps.forEach((step, i) => {
    lines.push(`step=${i + 1}    # ${i + 1}. ${stepTitle(step)}`);
    if (step.wait > 0) lines.push(`admin -X POST "$A/advance" -d ${sh(js({ ms: step.wait }))}    # the time between the run's steps`);
    if (step.waited?.changes.length > 0) lines.push(changesLine(step.waited));
    lines.push(...stepLines(step));
  });
  return `#!/usr/bin/env bash
# Copied from an orderpay run (service.exportTest("curl")), against \`npx orderpay serve\`:
# ORDERPAY_URL (default http://127.0.0.1:4010) and ORDERPAY_SESSION (default copied-test)
# say where (ORDERPAY_ADMIN_TOKEN: the admin token of a server beyond loopback). The session is reset to the run's options.
# ${clockNote(plan)}
${HELPERS}
admin -X POST "$A/reset" -d ${sh(js(plan.options))}
${lines.join("\n")}
echo "ok: ${plan.steps.length} steps answered as in the run"
`;
}
