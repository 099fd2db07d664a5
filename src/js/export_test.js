// service.exportTest(format, options): a run (runOf in service.js) as the
// text of a runnable test, in one of three formats, each rendered by its
// own file from test_plan.js's plan. Internal: the package exports it as
// the Service's method.
import { curlTest } from "./export_curl.js";
import { playwrightTest } from "./export_playwright.js";
import { vitestTest } from "./export_vitest.js";
import { kind } from "./request_parts.js";
import { planOf } from "./test_plan.js";

const FORMATS = { vitest: vitestTest, playwright: playwrightTest, curl: curlTest };

/** The options a format reads: the test's name, and Playwright's page. */
function readExportOptions(options) {
  if (options === undefined || options === null) return {};
  if (typeof options !== "object") throw new TypeError(`options: expected an object such as { name: "declined card" }, got ${kind(options)}`);
  for (const key of ["name", "page"]) {
    if (options[key] !== undefined && typeof options[key] !== "string") throw new TypeError(`options.${key}: expected a string, got ${kind(options[key])}`);
  }
  return { name: options.name, page: options.page };
}

/** The format's renderer, or a TypeError naming the format. */
export function rendererOf(format) {
  if (typeof format !== "string" || !Object.hasOwn(FORMATS, format)) {
    const said = typeof format === "string" ? JSON.stringify(format) : kind(format);
    throw new TypeError(`format: expected "vitest", "playwright" or "curl", got ${said}`);
  }
  return FORMATS[format];
}

/** The test's text for `run`; `make(options)` makes the service its replay is checked on. */
export function exportTest(run, format, options, make) {
  const render = rendererOf(format);
  const read = readExportOptions(options);
  return render(planOf(run, make), read);
}
