import { existsSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";

const CANDIDATES = [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"];

/** The machine's own Chromium (nothing is downloaded), headless. */
export async function launchBrowser(): Promise<Browser> {
  const executablePath = CANDIDATES.find((path): path is string => !!path && existsSync(path));
  if (!executablePath) throw new Error("No Chromium here: apt-get install -y chromium (or set CHROMIUM_PATH)");
  return chromium.launch({ executablePath, args: ["--no-sandbox"] });
}

/**
 * An init script that records each desktop notification a page shows (as
 * `window.__shown`, its titles) through the real Notification API: headless
 * Chromium draws nothing to look at.
 */
export const RECORD_NOTIFICATIONS = `{
  const Real = window.Notification;
  window.__shown = [];
  window.Notification = class extends Real {
    constructor(title, options) { super(title, options); window.__shown.push(title); }
  };
}`;
