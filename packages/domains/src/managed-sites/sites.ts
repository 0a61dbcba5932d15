import { z } from "zod";
import { errors } from "@mw/platform/core";
import type { Config } from "@mw/platform/config";
import type { PrismaClient } from "@mw/platform/database";
import { decryptSecret, encryptSecret } from "@mw/platform/crypto";
import { trimEndChars } from "@mw/platform/text";
import type { Connections } from "@mw/platform/connections";
import { Prisma } from "@mw/platform/prisma";
import { daysFromNow, daysLeft } from "./expiry.ts";
import { formId, formInt, formText } from "./form.ts";

export const SITE_STATUSES = ["active", "archived"] as const;

/** A site's base URL: http(s), no credentials, query or fragment; kept without a trailing slash so one site is one row. */
const siteUrl = z
  .string()
  .trim()
  .max(255)
  .pipe(z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }))
  .transform((value, ctx) => {
    const url = new URL(value);
    if (url.username || url.password || url.search || url.hash) {
      ctx.addIssue({ code: "custom", message: "must be the site's address without credentials, query or fragment" });
      return z.NEVER;
    }
    return `${url.origin}${trimEndChars(url.pathname, "/")}`;
  });

/** Fields an administrator edits; the WordPress and CDN secrets are write-only (shown as set or not). */
const editable = {
  name: z.string().trim().min(1).max(191),
  url: siteUrl,
  client: formText(191).optional(),
  hosting: formText(191).optional(),
  notes: formText(65_535).optional(),
  wp_username: formText(191).optional(),
  wp_app_password: formText(255).optional(),
  cdn_zone_id: formText(64).optional(),
  cdn_api_token: formText(255).optional(),
};

export const addSiteInput = z.object(editable);
export const updateSiteInput = z.object({
  id: formId,
  ...z.object(editable).partial().shape,
  status: z.enum(SITE_STATUSES).optional(),
});

export const listSitesInput = z.object({
  page: formInt(1).default(1),
  per_page: formInt(1, 100).default(20),
  /** Archived sites are hidden unless asked for. */
  status: z.enum([...SITE_STATUSES, "all"]).default("active"),
  client: z.string().trim().max(191).optional(),
  hosting: z.string().trim().max(191).optional(),
  search: z.string().trim().max(191).optional(),
  /** Only sites whose certificate expires within this many days (or has expired). */
  ssl_expiring_days: formInt(0, 3650).optional(),
});

export const searchSitesInput = z.object({ q: z.string().trim().min(1).max(191), limit: formInt(1, 50).default(10) });

export type ManagedSiteRow = Prisma.ManagedSiteGetPayload<object>;

/** What a site looks like to the dashboard: secrets only as set or not. */
export function siteView(site: ManagedSiteRow) {
  return {
    id: site.id,
    name: site.name,
    url: site.url,
    client: site.client,
    status: site.status as (typeof SITE_STATUSES)[number],
    hosting: site.hosting,
    notes: site.notes,
    wp_username: site.wp_username,
    wp_app_password_set: site.wp_app_password !== null,
    cdn_zone_id: site.cdn_zone_id,
    cdn_api_token_set: site.cdn_api_token !== null,
    wp_name: site.wp_name,
    wp_description: site.wp_description,
    plugins: (site.plugins as SitePlugin[] | null) ?? [],
    synced_at: site.synced_at?.toISOString() ?? null,
    ssl_issuer: site.ssl_issuer,
    ssl_expires_at: site.ssl_expires_at?.toISOString() ?? null,
    ssl_days_left: daysLeft(site.ssl_expires_at),
    ssl_checked_at: site.ssl_checked_at?.toISOString() ?? null,
    last_audit: (site.last_audit as Record<string, unknown> | null) ?? null,
    last_audit_at: site.last_audit_at?.toISOString() ?? null,
    screenshot_at: site.screenshot_at?.toISOString() ?? null,
    archived_at: site.archived_at?.toISOString() ?? null,
    created_at: site.created_at.toISOString(),
    updated_at: site.updated_at.toISOString(),
  };
}

/** A plugin as sync_site stores it from `/wp-json/wp/v2/plugins`. */
export interface SitePlugin {
  plugin: string;
  name: string;
  version: string | null;
  active: boolean;
  /** null: the site does not say (WordPress core's endpoint has no such field; docs/decisions.md). */
  update_available: boolean | null;
}

function secretData(input: { wp_app_password?: string | null; cdn_api_token?: string | null }, key: Buffer) {
  const data: { wp_app_password?: string | null; cdn_api_token?: string | null } = {};
  if (input.wp_app_password !== undefined) data.wp_app_password = input.wp_app_password === null ? null : encryptSecret(input.wp_app_password, key);
  if (input.cdn_api_token !== undefined) data.cdn_api_token = input.cdn_api_token === null ? null : encryptSecret(input.cdn_api_token, key);
  return data;
}

/** The stored WordPress and CDN credentials of a site, decrypted for the job that uses them. */
export function siteSecrets(site: ManagedSiteRow, key: Buffer) {
  return {
    wpAppPassword: site.wp_app_password ? decryptSecret(site.wp_app_password, key) : null,
    cdnApiToken: site.cdn_api_token ? decryptSecret(site.cdn_api_token, key) : null,
  };
}

function duplicateUrl(url: string) {
  return errors.conflict("site_exists", `A managed site with the URL ${url} already exists.`);
}

/** Managed sites by id (every one without ids), in id order. */
export function managedSiteRows(prisma: PrismaClient, siteIds?: number[]): Promise<ManagedSiteRow[]> {
  return prisma.managedSite.findMany({ where: siteIds ? { id: { in: siteIds } } : {}, orderBy: { id: "asc" } });
}

/** What the CSV exports list of a site; the dates are UTC days (YYYY-MM-DD). */
export interface SiteExportRow {
  id: number;
  name: string;
  url: string;
  client: string | null;
  status: string;
  hosting: string | null;
  plugins: SitePlugin[] | null;
  ssl_expires_on: string | null;
  synced_on: string | null;
}

/** A SiteExportRow as the database's JSON array, in the interface's order. */
type SiteExportCells = [number, string, string, string | null, string, string | null, SitePlugin[] | null, string | null, string | null];

/**
 * The sites of a status (or all), by name: the rows the CSV exports list, from
 * the replica (an export tolerates lag). In batches of `batch`, each read after
 * the last one's (name, id), so an export writes as it reads and never holds
 * every site and its plugins at once.
 */
export async function* managedSitesForExport(deps: Pick<Connections, "replica">, status: (typeof SITE_STATUSES)[number] | "all", batch = 500): AsyncGenerator<SiteExportRow[]> {
  const ofStatus = status === "all" ? Prisma.sql`TRUE` : Prisma.sql`status = ${status}`;
  let after: SiteExportRow | undefined;
  for (;;) {
    const from = after ? Prisma.sql`(name > ${after.name} OR (name = ${after.name} AND id > ${after.id}))` : Prisma.sql`TRUE`;
    // Each site comes as one JSON array of the columns the exports write, not a whole row: Prisma builds about a
    // kilobyte of objects per column value, and the 27 columns of 10,000 sites outlived the young generation
    // and grew the API by 260 MB before a full collection.
    const rows = await deps.replica.$queryRaw<{ site: SiteExportCells }[]>`
      SELECT JSON_ARRAY(id, name, url, client, status, hosting, plugins, DATE_FORMAT(ssl_expires_at, '%Y-%m-%d'), DATE_FORMAT(synced_at, '%Y-%m-%d')) AS site
      FROM managed_sites WHERE ${ofStatus} AND ${from} ORDER BY name, id LIMIT ${batch}`;
    const sites = rows.map(({ site: [id, name, url, client, siteStatus, hosting, plugins, sslExpiresOn, syncedOn] }) => ({
      id,
      name,
      url,
      client,
      status: siteStatus,
      hosting,
      plugins,
      ssl_expires_on: sslExpiresOn,
      synced_on: syncedOn,
    }));
    if (sites.length) yield sites;
    if (sites.length < batch) return;
    after = sites.at(-1);
  }
}

export async function managedSiteExists(prisma: PrismaClient, siteId: number): Promise<boolean> {
  return Boolean(await prisma.managedSite.findUnique({ where: { id: siteId }, select: { id: true } }));
}

export class ManagedSites {
  private readonly prisma: PrismaClient;
  private readonly encryptionKey: Buffer;

  constructor(deps: { prisma: PrismaClient; config: Pick<Config, "ENCRYPTION_KEY"> }) {
    this.prisma = deps.prisma;
    this.encryptionKey = deps.config.ENCRYPTION_KEY;
  }

  async find(id: number): Promise<ManagedSiteRow> {
    const site = await this.prisma.managedSite.findUnique({ where: { id } });
    if (!site) throw errors.notFound(`No managed site ${id}.`);
    return site;
  }

  async add(input: z.output<typeof addSiteInput>): Promise<ManagedSiteRow> {
    if (await this.prisma.managedSite.findUnique({ where: { url: input.url } })) throw duplicateUrl(input.url);
    const { wp_app_password, cdn_api_token, ...plain } = input;
    return this.prisma.managedSite.create({ data: { ...plain, ...secretData({ wp_app_password, cdn_api_token }, this.encryptionKey) } });
  }

  /**
   * The WordPress application password was entered for the site's host and
   * is sent only there: a URL on another host drops it unless the same
   * update gives one again (the CDN token goes to the CDN, wherever the site is).
   */
  async update(input: z.output<typeof updateSiteInput>): Promise<ManagedSiteRow> {
    const { id, wp_app_password, cdn_api_token, status, ...plain } = input;
    const site = await this.find(id);
    if (plain.url && plain.url !== site.url && (await this.prisma.managedSite.findUnique({ where: { url: plain.url } }))) throw duplicateUrl(plain.url);
    const archive = status === undefined || status === site.status ? {} : { status, archived_at: status === "archived" ? new Date() : null };
    const movesHost = plain.url !== undefined && new URL(plain.url).host !== new URL(site.url).host;
    return this.prisma.managedSite.update({ where: { id }, data: { ...plain, ...archive, ...secretData({ wp_app_password: wp_app_password === undefined && movesHost ? null : wp_app_password, cdn_api_token }, this.encryptionKey) } });
  }

  /** Soft delete: the site stays, with its history, out of the default lists. */
  async archive(id: number): Promise<ManagedSiteRow> {
    const site = await this.find(id);
    if (site.status === "archived") return site;
    return this.prisma.managedSite.update({ where: { id }, data: { status: "archived", archived_at: new Date() } });
  }

  async delete(id: number): Promise<void> {
    await this.find(id);
    await this.prisma.managedSite.delete({ where: { id } });
  }

  async list(input: z.output<typeof listSitesInput>) {
    const where: Prisma.ManagedSiteWhereInput = {
      ...(input.status !== "all" ? { status: input.status } : {}),
      ...(input.client ? { client: input.client } : {}),
      ...(input.hosting ? { hosting: input.hosting } : {}),
      ...(input.search ? { OR: [{ name: { contains: input.search } }, { url: { contains: input.search } }, { client: { contains: input.search } }] } : {}),
      ...(input.ssl_expiring_days !== undefined ? { ssl_expires_at: { lte: daysFromNow(input.ssl_expiring_days) } } : {}),
    };
    const [total, rows] = await Promise.all([
      this.prisma.managedSite.count({ where }),
      this.prisma.managedSite.findMany({ where, orderBy: [{ name: "asc" }, { id: "asc" }], skip: (input.page - 1) * input.per_page, take: input.per_page }),
    ]);
    return { sites: rows.map(siteView), total, page: input.page, per_page: input.per_page, total_pages: Math.ceil(total / input.per_page) };
  }

  /** Quick lookup by name, URL, client or WordPress title, archived sites included (marked by status). */
  async search(input: z.output<typeof searchSitesInput>) {
    const rows = await this.prisma.managedSite.findMany({
      where: { OR: [{ name: { contains: input.q } }, { url: { contains: input.q } }, { client: { contains: input.q } }, { wp_name: { contains: input.q } }] },
      orderBy: [{ status: "asc" }, { name: "asc" }],
      take: input.limit,
      select: { id: true, name: true, url: true, client: true, status: true },
    });
    return { sites: rows };
  }
}
