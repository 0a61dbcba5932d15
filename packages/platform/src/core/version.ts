import { readFileSync } from "node:fs";

const rootPackage = JSON.parse(
  readFileSync(new URL("../../../../package.json", import.meta.url), "utf8"),
) as { version: string };

/** Release number (major.minor.patch) of the platform. */
export const VERSION = rootPackage.version;

/** Sent on every outbound HTTP request (spec 1, section 6e). */
export const USER_AGENT = `Middleware/${VERSION}`;
