import { AppError } from "@mw/platform/core";
import { truncateCodePoints as truncate } from "@mw/platform/text";
import type { Connections } from "@mw/platform/connections";
import type { Site } from "@mw/platform/prisma";
import { isErpCredentialsRefusal } from "@mw/providers/erp";
import { raiseOperatorAlert } from "../notifications/index.ts";

/**
 * Credentials a sync's upstream refuses (docs/operations.md, "Sync
 * credentials"). A per-site sync talks to two upstreams: the site's storefront
 * and the ERP. A 401/403 from either fails every run alike until an operator
 * acts, so it is kept (one `sync_credential_failures` row per credential, from
 * the first refusal on), named by /readyz, and alerted once per row: a
 * credential that recovers and fails again gets a new row and a new alert.
 */

const ERP = "erp";
const siteCredential = (siteId: number) => `site.${siteId}`;
/** At most this many failing credentials are named by /readyz; the rest are counted. */
const NAMED_IN_CHECK = 10;

type Deps = Pick<Connections, "prisma">;

interface Refusal {
  credential: string;
  site_id: number | null;
  status: number;
}

/** Whose credentials `error` says were refused; null for any other failure. */
function refusalOf(site: Site, error: unknown): Refusal | null {
  if (!(error instanceof AppError) || error.upstream?.kind !== "unauthorized") return null;
  const { status } = error.upstream;
  return isErpCredentialsRefusal(error) ? { credential: ERP, site_id: null, status } : { credential: siteCredential(site.id), site_id: site.id, status };
}

const siteLabel = (siteId: number, name: string | undefined) => `site ${siteId} (${name ?? "deleted"})`;

/** What /readyz and the alert call the failure. */
function refusedText(refusal: Pick<Refusal, "site_id" | "status">): string {
  return `${refusal.site_id === null ? "ERP" : "storefront"} refused the credentials (HTTP ${refusal.status})`;
}

function alertText(site: Site, refusal: Refusal, sync: string, message: string): { subject: string; text: string } {
  const label = siteLabel(site.id, site.name);
  if (refusal.site_id === null) {
    return {
      subject: `Syncs stopped: the ${refusedText(refusal)}`,
      text: [
        `The ERP refused the middleware's credentials during the ${sync} of ${label}: ${message}`,
        "Every sync that reads the ERP fails alike until ERP_TOKEN (or ERP_CLIENT_ID, ERP_CLIENT_SECRET and ERP_SCOPE) is put right and the worker restarted.",
        "/readyz stays degraded until a sync gets through to the ERP again; you get this alert once until then.",
      ].join("\n\n"),
    };
  }
  return {
    subject: `Syncs of ${label} stopped: the ${refusedText(refusal)}`,
    text: [
      `The storefront of ${label} (${site.site_url}) refused the site's API credentials during the ${sync}: ${message}`,
      `Every sync of the site fails alike until its API key and secret are entered again (PUT /sites/${site.id}); the next run then checks them.`,
      "/readyz stays degraded until a sync of the site gets through again; you get this alert once until then.",
    ].join("\n\n"),
  };
}

/**
 * After a failed run of `sync` ("tracking sync", ...): when its upstream refused
 * the credentials, keeps that (the first refusal's row stays) and raises the
 * row's operator alert. Raised on every such run: the alert's key is the row's,
 * so it is sent once, and a run that stopped between the two still sends it.
 */
export async function recordCredentialRefusal(deps: Deps & Pick<Connections, "queues">, site: Site, sync: string, error: unknown): Promise<void> {
  const refusal = refusalOf(site, error);
  if (!refusal) return;
  const message = truncate((error as Error).message, 500);
  // INSERT IGNORE: a row kept from an earlier run (or a concurrent one) stays as it is.
  await deps.prisma.syncCredentialFailure.createMany({ data: [{ ...refusal, error: message }], skipDuplicates: true });
  const row = await deps.prisma.syncCredentialFailure.findUnique({ where: { credential: refusal.credential }, select: { id: true } });
  // Cleared meanwhile (a run got through, or the credentials were changed): nothing to tell.
  if (!row) return;
  await raiseOperatorAlert(deps, { key: `sync-credentials.${row.id}`, ...alertText(site, refusal, sync, message) });
}

/**
 * After a run that got through: the site's storefront took its credentials,
 * and the ERP took ours when the run reached it (`erpAnswered`), so their
 * failures end and a later refusal is alerted anew.
 */
export async function clearCredentialRefusals(deps: Deps, siteId: number, erpAnswered: boolean): Promise<void> {
  await deps.prisma.syncCredentialFailure.deleteMany({ where: { credential: { in: [siteCredential(siteId), ...(erpAnswered ? [ERP] : [])] } } });
}

/** The site's credentials were changed: its failure ends, and the next run checks the new ones. */
export function clearSiteCredentialRefusal(deps: Deps, siteId: number) {
  return deps.prisma.syncCredentialFailure.deleteMany({ where: { credential: siteCredential(siteId) } });
}

/**
 * A credential of the platform's own that its upstream refuses outside a
 * site's sync (the Harvest sync token, the Harvest app settings): kept as the
 * sites' are, from the first refusal on, and named by /readyz in `reason`'s
 * words until `clearPlatformCredentialRefusal` (a call that got through).
 */
export async function recordPlatformCredentialRefusal(deps: Deps, credential: string, status: number, reason: string): Promise<void> {
  await deps.prisma.syncCredentialFailure.createMany({ data: [{ credential, site_id: null, status, error: truncate(reason, 500) }], skipDuplicates: true });
}

/** The upstream took the platform's credential again: /readyz no longer names it. */
export async function clearPlatformCredentialRefusal(deps: Deps, credential: string): Promise<void> {
  await deps.prisma.syncCredentialFailure.deleteMany({ where: { credential } });
}

/**
 * /readyz's credentials check: degraded while an upstream refuses a sync's
 * credentials, naming each (an inactive site's storefront does not count:
 * nothing syncs it).
 */
export async function credentialsCheck({ prisma }: Deps): Promise<{ ok: boolean; error?: string }> {
  const rows = await prisma.syncCredentialFailure.findMany({
    where: { OR: [{ site_id: null }, { site: { is_active: true } }] },
    include: { site: { select: { name: true } } },
    orderBy: { id: "asc" },
  });
  if (!rows.length) return { ok: true };
  const named = rows.slice(0, NAMED_IN_CHECK).map((row) => (row.site_id !== null ? `${siteLabel(row.site_id, row.site?.name)}: ${refusedText(row)}` : row.credential === ERP ? refusedText(row) : row.error));
  const more = rows.length - named.length;
  return { ok: false, error: [...named, ...(more > 0 ? [`${more} more`] : [])].join("; ") };
}
