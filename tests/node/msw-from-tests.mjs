// Lets the built package's orderpay/msw (pkg/msw.js), which imports msw by
// name as from a user's own install, find the tests' pinned msw: a resolve
// hook for "msw" and "msw/*" only. Import it before the package's msw entry,
// which must then be imported dynamically (static imports resolve first).
import { register } from "node:module";

register(
  "data:text/javascript," +
    encodeURIComponent(
      `export async function resolve(specifier, context, next) {
         if (specifier === "msw" || specifier.startsWith("msw/")) return next(specifier, { ...context, parentURL: ${JSON.stringify(import.meta.url)} });
         return next(specifier, context);
       }`,
    ),
);
