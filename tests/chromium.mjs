// Debian's Chromium through playwright-core, launched one way by every
// browser test and benchmark: Playwright's own browser download does not
// work here, and as root Chromium needs --no-sandbox; the other flags keep
// it from reaching the network on its own. CHROMIUM names another binary.
import { chromium } from "playwright-core";

export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
  "--disable-sync",
];

/** A headless Chromium with CHROMIUM_ARGS and any `extra` flags. */
export function launchChromium(extra = []) {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    args: [...CHROMIUM_ARGS, ...extra],
  });
}
