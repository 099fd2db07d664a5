// ESLint over the JS layer (src/js/) and the page (www/): the recommended
// rules, and functions of at most 60 lines, as clippy's too_many_lines holds
// the Rust. Run by tests/lint-js.sh; ESLint and its packages are pinned in
// tests/package.json, so they are resolved from tests/ (this file is
// CommonJS: the root package.json declares no module type).
const { createRequire } = require("node:module");
const { join } = require("node:path");

const fromTests = createRequire(join(__dirname, "tests", "package.json"));
const js = fromTests("@eslint/js");
const globals = fromTests("globals");

module.exports = [
  {
    // Written by the build (src/gateway/openapi.rs), or fetched into place.
    ignores: ["src/js/openapi.js", "www/pkg/**", "pkg/**", "**/node_modules/**"],
  },
  js.configs.recommended,
  {
    files: ["src/js/**/*.js", "www/**/*.js"],
    rules: {
      // Blank lines and comments are not counted: clippy's too_many_lines
      // counts only lines of code too, so one threshold means the same in
      // both languages, and a comment saying why never has to go to make
      // room. What is limited is the code a reader holds at once.
      "max-lines-per-function": ["error", { max: 60, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    // The page, and the package's code that runs in a page or a worker
    // (most of it runs in Node too, where it checks before it touches a
    // browser global).
    files: ["www/**/*.js", "src/js/*.js"],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // The Service Worker scripts of the page.
    files: ["www/sw-*/**/*.js", "www/save-worker.js", "src/js/worker.js"],
    languageOptions: { globals: { ...globals.browser, ...globals.worker, ...globals.serviceworker } },
  },
  {
    // What runs only in Node: the HTTP server, and the entries for Node.
    files: ["src/js/server/**/*.js", "src/js/node.js", "src/js/playwright.js"],
    languageOptions: { globals: { ...globals.node } },
  },
];
