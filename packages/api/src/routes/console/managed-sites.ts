import express, { type Router } from "express";
import { errors } from "@mw/platform";
import { addSiteInput, Costs, Licenses, listCostsInput, listLicensesInput, listSitesInput, ManagedSites, SITE_STATUSES, siteView } from "@mw/domains/managed-sites";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { signedIn, viewer } from "./guard.ts";
import { pager, PER_PAGE } from "./pager.ts";
import { CONSOLE_PATH, renderPage } from "./render.ts";

const ADD_FIELDS = ["name", "url", "client", "hosting", "notes"] as const;

/** The page's query as the admin AJAX list takes it: empty fields left out, a bad page back to the first. */
function listInput<S extends z.ZodType>(schema: S, query: Record<string, unknown>, names: readonly string[]): z.output<S> {
  const given: Record<string, unknown> = { per_page: PER_PAGE };
  for (const name of names) if (typeof query[name] === "string" && query[name] !== "") given[name] = query[name];
  const parsed = schema.safeParse(given);
  if (parsed.success) return parsed.data;
  // A filter the page cannot use is dropped rather than refused: the page still lists.
  return schema.parse({ per_page: PER_PAGE });
}

const siteId = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

/** The management dashboard's sites (get_sites, get_site, add_site), costs (get_costs) and licences (get_licenses), for manage_options. */
export function managedSitePages(ctx: Pick<AppContext, "config" | "logger" | "prisma" | "sessions">): Router {
  const router = express.Router();
  const admins = signedIn(ctx, ["manage_options"]);
  const sites = new ManagedSites(ctx);
  const costs = new Costs(ctx);
  const licenses = new Licenses(ctx);

  const listPage = async (query: Record<string, unknown>) => {
    const input = listInput(listSitesInput, query, ["page", "status", "client", "hosting", "search", "ssl_expiring_days"]);
    const found = await sites.list(input);
    const filter = { status: input.status === "active" ? undefined : input.status, client: input.client, hosting: input.hosting, search: input.search, ssl_expiring_days: input.ssl_expiring_days?.toString() };
    return {
      title: "Managed sites",
      sites: found.sites,
      total: found.total,
      statuses: [...SITE_STATUSES, "all"],
      filter: { status: input.status, client: input.client ?? "", hosting: input.hosting ?? "", search: input.search ?? "", ssl_expiring_days: input.ssl_expiring_days ?? "" },
      ...pager(filter, input.page, found.total),
    };
  };

  router.get("/managed-sites", admins, async (req, res) => {
    const added = typeof req.query.added === "string" ? req.query.added.slice(0, 200) : null;
    renderPage(res, "managed-sites", { ...(await listPage(req.query)), added, form: {}, problem: null });
  });

  // add_site's use case: the same input schema and the same ManagedSites.add.
  router.post("/managed-sites", admins, async (req, res) => {
    const body = req.body as Record<string, unknown>;
    const given = Object.fromEntries(ADD_FIELDS.filter((name) => typeof body[name] === "string" && body[name] !== "").map((name) => [name, body[name]]));
    const parsed = addSiteInput.safeParse(given);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      renderPage(res, "managed-sites", { ...(await listPage({})), added: null, form: given, problem: `${String(issue.path[0] ?? "site")}: ${issue.message}` }, 400);
      return;
    }
    const site = await sites.add(parsed.data);
    ctx.logger.info("managed site added in the console", { site_id: site.id, login: viewer(res).principal.login });
    res.redirect(303, `${CONSOLE_PATH}/managed-sites/${site.id}?added=1`);
  });

  router.get("/managed-sites/:id", admins, async (req, res) => {
    const parsed = siteId.safeParse(req.params);
    if (!parsed.success) throw errors.notFound("No such managed site.");
    const site = siteView(await sites.find(parsed.data.id));
    const { costs: siteCosts, monthly_total } = await costs.ofSite(site.id);
    renderPage(res, "managed-site", { title: site.name, site, costs: siteCosts, monthlyTotal: monthly_total, added: req.query.added === "1" });
  });

  router.get("/costs", admins, async (req, res) => {
    const input = listInput(listCostsInput, req.query, ["page", "vendor", "search", "site_id"]);
    const found = await costs.list(input);
    renderPage(res, "costs", {
      title: "Costs",
      costs: found.costs,
      total: found.total,
      filter: { vendor: input.vendor ?? "", search: input.search ?? "" },
      ...pager({ vendor: input.vendor, search: input.search, site_id: input.site_id?.toString() }, input.page, found.total),
    });
  });

  router.get("/licences", admins, async (req, res) => {
    const input = listInput(listLicensesInput, req.query, ["page", "search", "expiring_days"]);
    const found = await licenses.list(input);
    renderPage(res, "licences", {
      title: "Licences",
      licenses: found.licenses,
      total: found.total,
      filter: { search: input.search ?? "", expiring_days: input.expiring_days ?? "" },
      ...pager({ search: input.search, expiring_days: input.expiring_days?.toString() }, input.page, found.total),
    });
  });
  return router;
}
