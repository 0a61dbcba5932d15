import { AppError } from "@mw/platform/core";
import type { PrismaClient } from "@mw/platform/database";
import { truncateCodePoints } from "@mw/platform/text";
import type { WordPressReading } from "@mw/providers/wordpress";
import type { ManagedSiteRow } from "./sites.ts";

/* What the managed-site jobs read and store: the site a job is about, and each job's findings on its row (a rerun overwrites them). */

type Deps = { prisma: PrismaClient };

/** The managed site a dashboard job is about; gone since it was queued, the job fails for good and says so. */
export async function siteForJob(deps: Deps, siteId: number): Promise<ManagedSiteRow> {
  const site = await deps.prisma.managedSite.findUnique({ where: { id: siteId } });
  if (!site) throw AppError.permanent(`Managed site ${siteId} does not exist (deleted since the job was queued).`, "site_not_found");
  return site;
}

/** sync_site: the WordPress name, description and plugins; answers when they were stored. */
export async function storeWordPressReading(deps: Deps, siteId: number, wordpress: WordPressReading): Promise<Date> {
  const syncedAt = new Date();
  await deps.prisma.managedSite.update({
    where: { id: siteId },
    data: { wp_name: truncateCodePoints(wordpress.name, 255), wp_description: wordpress.description, plugins: wordpress.plugins as object[], synced_at: syncedAt },
  });
  return syncedAt;
}

/** run_audit: the audit as the site's `last_audit`. */
export async function storeAudit(deps: Deps, siteId: number, audit: object): Promise<void> {
  await deps.prisma.managedSite.update({ where: { id: siteId }, data: { last_audit: { ...audit }, last_audit_at: new Date() } });
}

/**
 * take_screenshot: where the PNG is kept, and when it was taken. Answers the key of the screenshot it replaces
 * (null when none, or the same key again), whose file nothing names any more.
 */
export async function storeScreenshot(deps: Deps, siteId: number, storageKey: string, takenAt: Date): Promise<string | null> {
  const before = await deps.prisma.managedSite.findUnique({ where: { id: siteId }, select: { screenshot_key: true } });
  await deps.prisma.managedSite.update({ where: { id: siteId }, data: { screenshot_key: storageKey, screenshot_at: takenAt } });
  return before?.screenshot_key && before.screenshot_key !== storageKey ? before.screenshot_key : null;
}

/** check_ssl: the certificate's issuer and expiry, and when it was checked. */
export async function storeCertificate(deps: Deps, siteId: number, cert: { issuer: string | null; expires_at: string }): Promise<void> {
  await deps.prisma.managedSite.update({ where: { id: siteId }, data: { ssl_issuer: cert.issuer && truncateCodePoints(cert.issuer, 255), ssl_expires_at: new Date(cert.expires_at), ssl_checked_at: new Date() } });
}

/** The sites the certificate sweep checks: every active one served over https. */
export function activeHttpsSites(deps: Deps): Promise<ManagedSiteRow[]> {
  return deps.prisma.managedSite.findMany({ where: { status: "active", url: { startsWith: "https://" } }, orderBy: { id: "asc" } });
}
