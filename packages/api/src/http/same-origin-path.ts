import type { Request } from "express";
/** Stands in for the platform's own origin: any origin works, since only relative references are taken. */
const OWN_ORIGIN = "http://platform.invalid";

/**
 * Where to send a browser after signing in (`next`): a path on this
 * platform, or null. It is resolved with the URL parser, as the browser will
 * resolve it, and kept only when it stays on the platform's own origin:
 * prefix checks miss what the parser drops or folds (`/\t/host` loses its
 * tab and becomes `//host`; `/\host` turns into `//host`). The answer is the
 * resolved path, query and fragment, so the browser gets what was checked.
 * A resolved path that starts `//` or `/\` is refused too: dot segments
 * resolve away (`/.//host` becomes `//host`), and the browser reads what is
 * left as another host.
 */
export function sameOriginPath(next: unknown): string | null {
  if (typeof next !== "string" || !next.startsWith("/")) return null;
  let url: URL;
  try {
    url = new URL(next, OWN_ORIGIN);
  } catch {
    return null;
  }
  if (url.origin !== OWN_ORIGIN || /^\/[/\\]/.test(url.pathname)) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** True when the browser says the request comes from a page of this very host (Origin, else Referer). */
export function sameOrigin(req: Request): boolean {
  const source = req.headers.origin ?? req.headers.referer;
  if (!source) return false;
  try {
    return new URL(source).host === req.get("host");
  } catch {
    return false;
  }
}
