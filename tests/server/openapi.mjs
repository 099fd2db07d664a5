// The package's OpenAPI document, validated by a real OpenAPI validator,
// and a checker that holds every answer of the tests against it: status
// documented, body valid against its schema, headers against theirs.
import { readFileSync } from "node:fs";
import { join } from "node:path";

import SwaggerParser from "@apidevtools/swagger-parser";
import Ajv2020 from "ajv/dist/2020.js";

import { root } from "../node/consumer.mjs";

export const documentText = () => readFileSync(join(root, "pkg", "openapi.json"), "utf8");
/** The admin API's document, as the package ships it. */
export const adminDocumentText = () => readFileSync(join(root, "pkg", "openapi-admin.json"), "utf8");

/** Validates the document (throws on any error) and returns a checker of answers. */
export async function loadChecker(text = documentText()) {
  await SwaggerParser.validate(JSON.parse(text));
  const doc = await SwaggerParser.dereference(JSON.parse(text));
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  const routes = [];
  for (const [template, item] of Object.entries(doc.paths)) {
    const pattern = new RegExp("^" + template.replace(/\{[^}]+\}/g, "[^/]+") + "$");
    const literals = template.split("/").filter((s) => !s.startsWith("{")).length;
    for (const [method, op] of Object.entries(item)) routes.push({ method: method.toUpperCase(), template, pattern, literals, op });
  }
  routes.sort((a, b) => b.literals - a.literals);
  const compiled = new Map();
  const validator = (schema) => {
    if (!compiled.has(schema)) compiled.set(schema, ajv.compile(schema));
    return compiled.get(schema);
  };
  let checked = 0;
  return {
    doc,
    get checked() {
      return checked;
    },
    /** Throws unless the answer to `method path` is one the document describes. */
    check(method, path, { status, headers, body }) {
      const bare = path.split("?")[0];
      const route = routes.find((r) => r.method === method.toUpperCase() && r.pattern.test(bare));
      if (!route) throw new Error(`${method} ${bare}: not an operation of the document`);
      const response = route.op.responses[String(status)];
      if (!response) throw new Error(`${method} ${route.template}: status ${status} is not documented`);
      // The documented media type the answer's content-type names; only JSON has a body schema to hold it to.
      const type = Object.keys(response.content ?? {}).find((t) => String(headers["content-type"]).startsWith(t));
      if (type === undefined) throw new Error(`${method} ${route.template}: content-type ${headers["content-type"]}`);
      const valid = type === "application/json" ? validator(response.content[type].schema) : () => typeof body === "string";
      if (!valid(body)) {
        throw new Error(`${method} ${route.template} ${status}: ${ajv.errorsText(valid.errors)} in ${JSON.stringify(body)}`);
      }
      for (const [name, header] of Object.entries(response.headers ?? {})) {
        const value = headers[name.toLowerCase()];
        if (value === undefined) continue;
        const check = validator(header.schema);
        if (!check(value)) throw new Error(`${method} ${route.template} ${status}: header ${name}: ${ajv.errorsText(check.errors)} (${value})`);
      }
      checked += 1;
    },
  };
}
