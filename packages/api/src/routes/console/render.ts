import { fileURLToPath } from "node:url";
import type { Response } from "express";
import { Eta } from "eta";
import type { Capability, Principal } from "@mw/domains/identity";

export const CONSOLE_PATH = "/console";

/** Templates and browser modules live beside src/ and dist/ alike (packages/api/console), so both builds find them. */
export const CONSOLE_FILES = fileURLToPath(new URL("../../../console/", import.meta.url));

/** Nothing from elsewhere and no inline script or style: the modules and the stylesheet are served from /console/assets. */
export const CONSOLE_CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

export const PAGE_HEADERS = {
  "Content-Security-Policy": CONSOLE_CSP,
  "Cache-Control": "no-store",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "same-origin",
};

// autoEscape is Eta's default; set here so nobody turns it off by accident: `<%= %>` escapes, `<%~ %>` is kept
// for the layout's body and for HTML already cleaned by the allow-list (design 10.8).
const eta = new Eta({ views: `${CONSOLE_FILES}views`, autoEscape: true, cache: true });

/** Who is looking at a page: the session's user and its nonce (forms and the page's modules send it back). */
export interface Viewer {
  principal: Principal;
  nonce: string;
}

interface NavItem {
  href: string;
  label: string;
  allowed: readonly Capability[];
}

/** The console's sections and who may open each. */
export const NAV: readonly NavItem[] = [
  { href: `${CONSOLE_PATH}/snapshots`, label: "Snapshots", allowed: ["staff", "manage_options"] },
  { href: `${CONSOLE_PATH}/tickets`, label: "Tickets", allowed: ["staff", "manage_options"] },
  { href: `${CONSOLE_PATH}/chat`, label: "Assistant", allowed: ["staff", "manage_options"] },
  { href: `${CONSOLE_PATH}/settings`, label: "Settings", allowed: ["manage_options"] },
  { href: `${CONSOLE_PATH}/operations`, label: "Operations", allowed: ["manage_middleware"] },
  { href: `${CONSOLE_PATH}/orders`, label: "Orders", allowed: ["manage_middleware"] },
  { href: `${CONSOLE_PATH}/disputes`, label: "Disputes", allowed: ["manage_middleware"] },
  { href: `${CONSOLE_PATH}/sites`, label: "Sites", allowed: ["manage_middleware"] },
  { href: `${CONSOLE_PATH}/sync-runs`, label: "Sync runs", allowed: ["manage_middleware"] },
  { href: `${CONSOLE_PATH}/items`, label: "Items", allowed: ["manage_middleware"] },
  { href: `${CONSOLE_PATH}/merchant-accounts`, label: "Merchant accounts", allowed: ["manage_middleware"] },
  { href: `${CONSOLE_PATH}/reports`, label: "Reports", allowed: ["manage_middleware"] },
  { href: `${CONSOLE_PATH}/managed-sites`, label: "Managed sites", allowed: ["manage_options"] },
];

export function holds(principal: Principal, allowed: readonly Capability[]): boolean {
  return allowed.some((capability) => principal.capabilities.includes(capability));
}

/** Renders a page template inside the layout, with the viewer's navigation, nonce and notification bell. */
export function renderPage(res: Response, template: string, data: Record<string, unknown> & { title: string }, status = 200): void {
  const viewer = res.locals.viewer as Viewer | undefined;
  const html = eta.render(template, {
    ...data,
    viewer: viewer && { login: viewer.principal.login, staffId: viewer.principal.staffId },
    nonce: viewer?.nonce ?? null,
    nav: viewer ? NAV.filter((item) => holds(viewer.principal, item.allowed)) : [],
    scripts: (data.scripts as string[] | undefined) ?? [],
    current: res.req.originalUrl.split("?")[0],
  });
  res.status(status).set(PAGE_HEADERS).type("html").send(html);
}
