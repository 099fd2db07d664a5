// The scenario document's keys in short, for the Failures panel: what a
// rule's `when` can match on and what each `then` kind takes, read from
// the JSON Schema the package ships (orderpay/scenario.schema.json), so
// the page keeps no copy of its own that could fall behind.
import { h } from "./dom.js";

/** The schema, once read; null when the package beside the page has none. */
let schemaRead = null;

/** The package's scenario schema (a promise of it, or of null). */
export function scenarioSchema() {
  schemaRead ??= fetch(new URL("./pkg/scenario.schema.json", import.meta.url))
    .then((r) => (r.ok ? r.json() : null))
    .catch(() => null);
  return schemaRead;
}

/** Every decline code the schema allows, in its order. */
export function declineCodes(schema) {
  const decline = thenKinds(schema).find(([kind]) => kind === "decline");
  return decline?.[1].code?.enum ?? [];
}

/** [kind, its properties but `kind`] for each branch of `then`. */
function thenKinds(schema) {
  const branches = schema?.$defs?.then?.oneOf ?? [];
  return branches.map((b) => {
    const { kind, ...rest } = b.properties ?? {};
    return [kind?.const ?? "?", rest, b.required ?? []];
  });
}

/** A property's values in a few words: its enum, its bounds, or its type (a $ref read from the schema's $defs). */
function valuesOf(schema, prop) {
  const ref = prop.$ref ? schema.$defs?.[prop.$ref.split("/").at(-1)] ?? {} : {};
  const p = { ...ref, ...prop };
  if (p.const !== undefined) return JSON.stringify(p.const);
  if (p.enum) return p.enum.join(" | ");
  if (p.type === "object") return `{ ${Object.keys(p.properties ?? {}).join(", ")} }`;
  const bounds = typeof p.minimum === "number" && typeof p.maximum === "number" && p.maximum < 1e7 ? ` ${p.minimum}–${p.maximum}` : "";
  return `${p.type ?? "value"}${bounds}`;
}

/** What a property's description says, $ref's and its own. */
function described(schema, prop) {
  const ref = prop.$ref ? schema.$defs?.[prop.$ref.split("/").at(-1)] ?? {} : {};
  return prop.description ?? ref.description ?? "";
}

/** The reference: `when`'s keys, then each `then` kind with its keys; a note when the schema could not be read. */
export function keysReference(schema) {
  const when = schema?.$defs?.when;
  if (!when) return h("p", { class: "note" }, "The schema the package ships (orderpay/scenario.schema.json) could not be read here: see docs/scenarios.md for the keys.");
  const row = (key, values, note) => h("tr", null, h("th", { scope: "row" }, h("code", null, key)), h("td", { class: "mono" }, values), h("td", null, note));
  return [
    h("p", { class: "hint" }, `${schema.description ?? ""} A rule is { "name"?, "when"?, "then" }.`),
    h("div", { class: "keys-wrap", tabindex: "0", role: "region", "aria-label": "the keys of when, scrolls sideways" },
      h("table", { class: "keys", id: "when-keys" },
        h("caption", null, h("code", null, "when"), `: ${when.description ?? ""}`),
        h("thead", null, h("tr", null, ["key", "values", "what it does"].map((c) => h("th", { scope: "col" }, c)))),
        h("tbody", null, Object.entries(when.properties ?? {}).map(([key, prop]) => row(key, valuesOf(schema, prop), described(schema, prop)))))),
    h("div", { class: "keys-wrap", tabindex: "0", role: "region", "aria-label": "the kinds of then, scrolls sideways" },
      h("table", { class: "keys", id: "then-keys" },
        h("caption", null, h("code", null, "then"), ": one failure, by its kind"),
        h("thead", null, h("tr", null, ["kind", "its keys", "values"].map((c) => h("th", { scope: "col" }, c)))),
        h("tbody", null, thenKinds(schema).map(([kind, props, required]) => h("tr", { dataset: { kind } },
          h("th", { scope: "row" }, h("code", null, kind)),
          h("td", { class: "mono" }, Object.keys(props).map((k) => (required.includes(k) ? k : `${k}?`)).join(", ") || "—"),
          h("td", { class: "mono" }, Object.entries(props).map(([k, p]) => `${k}: ${valuesOf(schema, p)}`).join("; ") || "—")))))),
  ];
}
