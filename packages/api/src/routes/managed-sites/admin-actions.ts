import { jobRef } from "@mw/platform";
import {
  addCostInput,
  addLicenseInput,
  addSiteInput,
  Costs,
  idInput,
  costView,
  Licenses,
  licenseView,
  listCostsInput,
  listLicensesInput,
  listSitesInput,
  ManagedSites,
  mapLicenseInput,
  searchSitesInput,
  siteCostInput,
  siteView,
  updateCostInput,
  updateLicenseInput,
  updateSiteInput,
} from "@mw/domains/managed-sites";
import { reportJobs, requestDashboardSummary } from "@mw/domains/reports";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { adminAction, type AdminAction } from "../../http/admin-ajax.ts";
import { exportActions } from "./exports.ts";
import { siteJobActions } from "./site-jobs.ts";
import { COST_EXAMPLE, costData, LICENSE_EXAMPLE, licenseData, page, SITE_EXAMPLE, siteData } from "./views.ts";

/** A delete action: the record's id in, `{deleted: true, id}` out. */
function deleteAction(name: string, group: string, summary: string, exampleId: number, remove: (id: number) => Promise<void>): AdminAction {
  return adminAction({
    name,
    group,
    summary,
    input: idInput,
    data: z.object({ deleted: z.literal(true), id: z.number().int() }),
    example: { input: { id: exampleId }, data: { deleted: true, id: exampleId } },
    handler: async ({ id }) => {
      await remove(id);
      return { deleted: true as const, id };
    },
  });
}

/** Spec 2, 4.4: the Sites, Costs, Licenses and Reports groups, and search_sites (design 10.6, 10.8). */
export function managedSitesActions(ctx: Pick<AppContext, "config" | "prisma" | "queues" | "replica">): AdminAction[] {
  const sites = new ManagedSites(ctx);
  const costs = new Costs(ctx);
  const licenses = new Licenses(ctx);
  const siteWithCosts = async (id: number) => ({ ...siteView(await sites.find(id)), ...(await costs.ofSite(id)) });
  const siteDetail = siteData.extend({ costs: z.array(costData), monthly_total: z.array(z.object({ currency: z.string(), amount: z.number() })) });

  return [
    adminAction({
      name: "get_sites",
      group: "Sites",
      summary: "Managed sites, paginated; filters status (archived hidden unless asked), client, hosting, search, ssl_expiring_days",
      input: listSitesInput,
      data: page("sites", siteData),
      example: { input: { page: 1, per_page: 20, status: "active", ssl_expiring_days: 30 }, data: { sites: [SITE_EXAMPLE], total: 1, page: 1, per_page: 20, total_pages: 1 } },
      handler: (input) => sites.list(input),
    }),
    adminAction({
      name: "get_site",
      group: "Sites",
      summary: "One managed site with its costs, the share of each on this site, and the monthly total",
      input: idInput,
      data: siteDetail,
      example: { input: { id: 3 }, data: { ...SITE_EXAMPLE, costs: [COST_EXAMPLE], monthly_total: [{ currency: "EUR", amount: 12.5 }] } },
      handler: (input) => siteWithCosts(input.id),
    }),
    adminAction({
      name: "add_site",
      group: "Sites",
      summary: "Add a managed site (the WordPress application password and CDN token are stored encrypted, never shown)",
      input: addSiteInput,
      data: siteData,
      example: {
        input: { name: "ACME shop", url: "https://shop.acme.example", client: "ACME", hosting: "Kinsta", wp_username: "dashboard", wp_app_password: "abcd efgh ijkl mnop qrst uvwx" },
        data: SITE_EXAMPLE,
      },
      handler: async (input) => siteView(await sites.add(input)),
    }),
    adminAction({
      name: "update_site",
      group: "Sites",
      summary: "Change a site's fields (only those given; an empty field clears it); status active or archived",
      input: updateSiteInput,
      data: siteData,
      example: { input: { id: 3, hosting: "WP Engine", notes: "" }, data: SITE_EXAMPLE },
      handler: async (input) => siteView(await sites.update(input)),
    }),
    adminAction({
      name: "archive_site",
      group: "Sites",
      summary: "Archive a site (soft delete): kept with its history, hidden from get_sites unless asked",
      input: idInput,
      data: siteData,
      example: { input: { id: 3 }, data: { ...SITE_EXAMPLE, status: "archived", archived_at: "2026-11-25T10:00:00.000Z" } },
      handler: async (input) => siteView(await sites.archive(input.id)),
    }),
    deleteAction("delete_site", "Sites", "Delete a site for good, with its cost assignments", 3, (id) => sites.delete(id)),
    adminAction({
      name: "search_sites",
      group: "Utilities",
      summary: "Find sites by name, URL, client or WordPress title (archived ones too, marked by status)",
      input: searchSitesInput,
      data: z.object({ sites: z.array(z.object({ id: z.number(), name: z.string(), url: z.string(), client: z.string().nullable(), status: z.string() })) }),
      example: { input: { q: "acme" }, data: { sites: [{ id: 3, name: "ACME shop", url: "https://shop.acme.example", client: "ACME", status: "active" }] } },
      handler: (input) => sites.search(input),
    }),
    adminAction({
      name: "get_costs",
      group: "Costs",
      summary: "Costs, paginated (filters vendor, search, site_id), each with its monthly equivalent and per-site share",
      input: listCostsInput,
      data: page("costs", costData),
      example: { input: { vendor: "Kinsta" }, data: { costs: [COST_EXAMPLE], total: 1, page: 1, per_page: 20, total_pages: 1 } },
      handler: (input) => costs.list(input),
    }),
    adminAction({
      name: "get_cost",
      group: "Costs",
      summary: "One cost with its sites",
      input: idInput,
      data: costData,
      example: { input: { id: 5 }, data: COST_EXAMPLE },
      handler: async (input) => costView(await costs.find(input.id)),
    }),
    adminAction({
      name: "add_cost",
      group: "Costs",
      summary: "Add a cost: amount per monthly or yearly cycle, in a currency",
      input: addCostInput,
      data: costData,
      example: { input: { name: "Hosting plan", vendor: "Kinsta", amount: 300, currency: "EUR", cycle: "yearly", renews_on: "2027-03-01" }, data: COST_EXAMPLE },
      handler: async (input) => costView(await costs.add(input)),
    }),
    adminAction({
      name: "update_cost",
      group: "Costs",
      summary: "Change a cost's fields (only those given)",
      input: updateCostInput,
      data: costData,
      example: { input: { id: 5, amount: "300.00" }, data: COST_EXAMPLE },
      handler: async (input) => costView(await costs.update(input)),
    }),
    deleteAction("delete_cost", "Costs", "Delete a cost; its site assignments go, licenses it paid for become unmapped", 5, (id) => costs.delete(id)),
    adminAction({
      name: "assign_cost_to_site",
      group: "Costs",
      summary: "Share a cost with a site (again: no change); the per-site share is recomputed",
      input: siteCostInput,
      data: costData,
      example: { input: { cost_id: 5, site_id: 3 }, data: COST_EXAMPLE },
      handler: async (input) => costView(await costs.assign(input.cost_id, input.site_id)),
    }),
    adminAction({
      name: "remove_cost_from_site",
      group: "Costs",
      summary: "Stop sharing a cost with a site",
      input: siteCostInput,
      data: costData,
      example: { input: { cost_id: 5, site_id: 3 }, data: { ...COST_EXAMPLE, site_ids: [4], per_site_monthly_share: 25 } },
      handler: async (input) => costView(await costs.remove(input.cost_id, input.site_id)),
    }),
    adminAction({
      name: "get_licenses",
      group: "Licenses",
      summary: "Licenses, soonest expiry first, paginated (filters search, cost_id, unmapped, expiring_days); keys shown only as set",
      input: listLicensesInput,
      data: page("licenses", licenseData),
      example: { input: { expiring_days: 60 }, data: { licenses: [LICENSE_EXAMPLE], total: 1, page: 1, per_page: 20, total_pages: 1 } },
      handler: (input) => licenses.list(input),
    }),
    adminAction({
      name: "map_license",
      group: "Licenses",
      summary: "Tie a license to the cost that pays for it (cost_id empty or null unmaps it)",
      input: mapLicenseInput,
      data: licenseData,
      example: { input: { license_id: 8, cost_id: 5 }, data: LICENSE_EXAMPLE },
      handler: async (input) => licenseView(await licenses.map(input.license_id, input.cost_id)),
    }),
    adminAction({
      name: "add_license",
      group: "Licenses",
      summary: "Add a license (its key stored encrypted, never shown)",
      input: addLicenseInput,
      data: licenseData,
      example: { input: { product: "Gravity Forms Elite", license_key: "GF-1234-5678", seats: 10, expires_on: "2027-01-15", cost_id: 5 }, data: LICENSE_EXAMPLE },
      handler: async (input) => licenseView(await licenses.add(input)),
    }),
    adminAction({
      name: "update_license",
      group: "Licenses",
      summary: "Change a license's fields (only those given)",
      input: updateLicenseInput,
      data: licenseData,
      example: { input: { id: 8, seats: 25 }, data: LICENSE_EXAMPLE },
      handler: async (input) => licenseView(await licenses.update(input)),
    }),
    deleteAction("delete_license", "Licenses", "Delete a license", 8, (id) => licenses.delete(id)),
    adminAction({
      name: "generate_report",
      group: "Reports",
      summary: "Queue the dashboard summary (sites by status, monthly costs by vendor and client, licenses and certificates expiring within 30 days); follow it with get_job",
      input: z.object({}),
      data: z.object({ job_id: z.string(), report_id: z.number().int(), queued: z.boolean(), reason: z.string().nullable().describe("why nothing was queued") }),
      example: { input: {}, data: { job_id: "reports:report.12.1764064800000", report_id: 12, queued: true, reason: null } },
      handler: async () => {
        const { report, jobId, queued, reason } = await requestDashboardSummary(ctx);
        return { job_id: jobRef(reportJobs["dashboard-summary"].queue, jobId), report_id: report.id, queued, reason };
      },
    }),
    ...exportActions(ctx),
    ...siteJobActions(ctx),
  ];
}
