import express, { type Request, type Router } from "express";
import { errors, formatDateTime } from "@mw/platform";
import { SITE_SCHEDULES } from "@mw/domains/schedules";
import {
  createSite,
  issueSiteApiKey,
  listSiteApiKeys,
  listSites,
  listSyncRuns,
  openCredentials,
  platformSchema,
  requireSite,
  revokeSiteApiKey,
  siteCreateInput,
  siteUpdateInput,
  testSiteConnection,
  toggleSiteStatus,
  updateSite,
  type Site,
} from "@mw/domains/sites";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { pageQuery, pageWindow } from "../../http/pagination.ts";
import { refusalProblems, zodProblems } from "./form-problems.ts";
import { signedIn, viewer } from "./guard.ts";
import { pager, PER_PAGE } from "./pager.ts";
import { CONSOLE_PATH, renderPage } from "./render.ts";

type Ctx = Pick<AppContext, "config" | "invalidation" | "logger" | "prisma" | "queues" | "replica" | "sessions">;

const params = z.object({ id: z.coerce.number().int().positive() });
const keyParams = params.extend({ keyId: z.coerce.number().int().positive() });
const listFilters = z.object({ active: z.enum(["0", "1"]).optional().catch(undefined) });
const paged = z.object({ page: pageQuery.shape.page.catch(1) });

/** The switches the form shows as checkboxes: unticked boxes are not sent, so absent means off. */
const SWITCHES = ["orders_sync", "inventory_sync", "tracking_sync"] as const;

/** What the site form shows: the stored values, or what was posted when it comes back refused. The token never. */
interface SiteForm {
  name: string;
  platform: string;
  site_url: string;
  api_base_url: string;
  api_key: string;
  orders_sync: boolean;
  inventory_sync: boolean;
  tracking_sync: boolean;
}

function formOf(site: Site, key: Buffer): SiteForm {
  return {
    name: site.name,
    platform: site.platform,
    site_url: site.site_url,
    api_base_url: site.api_base_url ?? "",
    api_key: site.api_credentials ? openCredentials(site.api_credentials, key).client_id : "",
    orders_sync: site.orders_sync,
    inventory_sync: site.inventory_sync,
    tracking_sync: site.tracking_sync,
  };
}

const text = (value: unknown) => (typeof value === "string" ? value.trim() : "");

/** The posted form as POST /sites or PUT /sites/{id} takes it; an empty token on edit keeps the stored one. */
function readSiteForm(body: Record<string, unknown>): { shown: SiteForm; input: Record<string, unknown> } {
  const shown: SiteForm = {
    name: text(body.name),
    platform: text(body.platform),
    site_url: text(body.site_url),
    api_base_url: text(body.api_base_url),
    api_key: text(body.api_key),
    orders_sync: body.orders_sync === "on",
    inventory_sync: body.inventory_sync === "on",
    tracking_sync: body.tracking_sync === "on",
  };
  const input: Record<string, unknown> = { ...shown, api_base_url: shown.api_base_url || null };
  if (text(body.api_secret)) input.api_secret = text(body.api_secret);
  if (!shown.api_key) delete input.api_key;
  for (const name of SWITCHES) input[name] = shown[name];
  return { shown, input };
}

/**
 * Sites (spec 1, 4.2) for operators: the list as GET /sites answers it, a site's
 * settings and sync switches, its connection test, its last runs (GET
 * /sync-runs?site_id=) and its API keys. Each action is the REST route's domain call.
 */
export function sitePages(ctx: Ctx): Router {
  const router = express.Router();
  const operators = signedIn(ctx, ["manage_middleware"]);
  const key = ctx.config.ENCRYPTION_KEY;
  const writes = { ...ctx, siteSchedules: SITE_SCHEDULES };
  const platforms: readonly string[] = platformSchema.options;

  async function siteOf(req: Request): Promise<Site> {
    const parsed = params.safeParse(req.params);
    if (!parsed.success) throw errors.notFound("No such site.");
    return requireSite(ctx, parsed.data.id);
  }

  async function renderSite(req: Request, res: express.Response, site: Site, extra: { form?: SiteForm; problems?: string[]; tested?: { success: boolean; message: string } } = {}, status = 200) {
    const page = paged.parse(req.query).page;
    const { total, rows } = await listSyncRuns(ctx, { site_id: site.id }, pageWindow({ page, per_page: PER_PAGE }));
    const notice = typeof req.query.saved === "string" ? "Site saved." : typeof req.query.created === "string" ? "Site created." : typeof req.query.toggled === "string" ? (site.is_active ? "Site activated." : "Site deactivated.") : null;
    renderPage(
      res,
      "site",
      {
        title: `Site ${site.name}`,
        site: { id: site.id, name: site.name, is_active: site.is_active, token_set: site.api_credentials !== null },
        form: extra.form ?? formOf(site, key),
        problems: extra.problems ?? [],
        tested: extra.tested ?? null,
        notice,
        platforms,
        runs: rows,
        runTotal: total,
        ...pager({}, page, total),
      },
      status,
    );
  }

  router.get("/sites", operators, async (req, res) => {
    const { active } = listFilters.parse(req.query);
    const sites = await listSites(ctx, active === undefined ? undefined : active === "1");
    renderPage(res, "sites", { title: "Sites", sites, filter: { active: active ?? "" } });
  });

  router.get("/sites/new", operators, (_req, res) => {
    const form: SiteForm = { name: "", platform: platforms[0]!, site_url: "", api_base_url: "", api_key: "", orders_sync: true, inventory_sync: true, tracking_sync: true };
    renderPage(res, "site-new", { title: "Add a site", form, problems: [], platforms });
  });

  router.post("/sites", operators, async (req, res) => {
    const { shown, input } = readSiteForm(req.body as Record<string, unknown>);
    const parsed = siteCreateInput.safeParse(input);
    let problems = parsed.success ? [] : zodProblems(parsed.error);
    if (parsed.success) {
      try {
        const site = await createSite(writes, parsed.data);
        ctx.logger.info("site created in the console", { site_id: site.id, login: viewer(res).principal.login });
        res.redirect(303, `${CONSOLE_PATH}/sites/${site.id}?created=1`);
        return;
      } catch (error) {
        problems = refusalProblems(error);
      }
    }
    renderPage(res, "site-new", { title: "Add a site", form: shown, problems, platforms }, 400);
  });

  router.get("/sites/:id", operators, async (req, res) => {
    await renderSite(req, res, await siteOf(req));
  });

  router.post("/sites/:id", operators, async (req, res) => {
    const site = await siteOf(req);
    const { shown, input } = readSiteForm(req.body as Record<string, unknown>);
    const parsed = siteUpdateInput.safeParse(input);
    let problems = parsed.success ? [] : zodProblems(parsed.error);
    if (parsed.success) {
      try {
        await updateSite(writes, site.id, parsed.data);
        ctx.logger.info("site updated in the console", { site_id: site.id, login: viewer(res).principal.login });
        res.redirect(303, `${CONSOLE_PATH}/sites/${site.id}?saved=1`);
        return;
      } catch (error) {
        problems = refusalProblems(error);
      }
    }
    await renderSite(req, res, site, { form: shown, problems }, 400);
  });

  router.post("/sites/:id/toggle-status", operators, async (req, res) => {
    const site = await siteOf(req);
    await toggleSiteStatus(writes, site.id);
    res.redirect(303, `${CONSOLE_PATH}/sites/${site.id}?toggled=1`);
  });

  router.post("/sites/:id/test-connection", operators, async (req, res) => {
    const site = await siteOf(req);
    const result = await testSiteConnection(site, ctx.config);
    ctx.logger.info("site connection tested", { site_id: site.id, success: result.success, result: result.message });
    await renderSite(req, res, site, { tested: result });
  });

  async function renderKeys(req: Request, res: express.Response, site: Site, created: { label: string; key: string } | null, notice: string | null, status = 200) {
    const page = paged.parse(req.query).page;
    const { total, rows } = await listSiteApiKeys(ctx, site.id, pageWindow({ page, per_page: PER_PAGE }));
    const keys = rows.map((row) => ({ id: row.id, label: row.label, key_prefix: row.key_prefix, created_at: formatDateTime(row.created_at)!, last_used_at: formatDateTime(row.last_used_at), revoked_at: formatDateTime(row.revoked_at) }));
    renderPage(res, "site-keys", { title: `API keys of ${site.name}`, site: { id: site.id, name: site.name }, keys, total, created, notice, ...pager({}, page, total) }, status);
  }

  router.get("/sites/:id/api-keys", operators, async (req, res) => {
    await renderKeys(req, res, await siteOf(req), null, typeof req.query.revoked === "string" ? "API key revoked." : null);
  });

  router.post("/sites/:id/api-keys", operators, async (req, res) => {
    const site = await siteOf(req);
    const label = z.string().trim().min(1).max(100).safeParse((req.body as { label?: unknown }).label);
    if (!label.success) {
      await renderKeys(req, res, site, null, `label: ${label.error.issues[0]!.message}`, 400);
      return;
    }
    const { row, key: secret } = await issueSiteApiKey(ctx, site.id, label.data);
    ctx.logger.info("site API key created", { site_id: site.id, key_id: row.id, label: row.label, login: viewer(res).principal.login });
    // Rendered, never redirected: the key must not travel in a URL, and this answer is the only place it appears.
    await renderKeys(req, res, site, { label: row.label, key: secret }, null, 201);
  });

  router.post("/sites/:id/api-keys/:keyId/revoke", operators, async (req, res) => {
    const parsed = keyParams.safeParse(req.params);
    if (!parsed.success || !(await revokeSiteApiKey(ctx, parsed.data.id, parsed.data.keyId))) throw errors.notFound("API key not found.");
    ctx.logger.info("site API key revoked", { site_id: parsed.data.id, key_id: parsed.data.keyId, login: viewer(res).principal.login });
    res.redirect(303, `${CONSOLE_PATH}/sites/${parsed.data.id}/api-keys?revoked=1`);
  });
  return router;
}
