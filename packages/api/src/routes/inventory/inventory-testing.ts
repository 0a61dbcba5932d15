import { errors } from "@mw/platform";
import { inventorySyncJob, testInventorySyncJobId } from "@mw/shared/inventory";
import { INVENTORY_SYNC_SITES, inventorySyncEnabled } from "@mw/shared/sites";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import type { ApiRouter } from "../../http/api-router.ts";
import { queuedSchema } from "../tracking/tracking.ts";

const MAX_ID = 2_147_483_647;
const SELECTOR_RULE = 'a site id (a positive integer) or "all"';

/** `site_id` of spec 1, 4.8: from the JSON body, else the query string. */
function siteSelector(value: unknown): number | "all" {
  if (value === undefined || value === null || value === "") throw errors.missingParam("site_id");
  if (value === "all") return "all";
  const id = typeof value === "number" ? value : typeof value === "string" && /^\d{1,10}$/.test(value.trim()) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(id) || id < 1 || id > MAX_ID) throw errors.invalidParam("site_id", `must be ${SELECTOR_RULE}`);
  return id;
}

interface Candidate {
  id: number;
  is_active: boolean;
  inventory_sync: boolean;
  api_credentials: string | null;
}

/** Why a site gets no full inventory sync, or null when it may have one. */
function refusal(site: Candidate): string | null {
  if (!inventorySyncEnabled(site)) return site.is_active ? "Inventory sync is off for this site." : "The site is inactive.";
  if (!site.api_credentials) return "The site has no API credentials.";
  return null;
}

const SELECT = { id: true, is_active: true, inventory_sync: true, api_credentials: true } as const;

/** POST /testing/inventory/sync (spec 1, 4.8): full inventory-sync jobs by hand. */
export function inventoryTestingRoutes(api: ApiRouter, ctx: AppContext): void {
  api.route({
    method: "post",
    path: "/testing/inventory/sync",
    summary: 'Queue a full inventory sync of one site, or of every active site with inventory sync ("all")',
    tag: "inventory",
    access: "manage_middleware",
    query: z.object({ site_id: z.string().optional().describe(`${SELECTOR_RULE}; the JSON body's site_id wins`) }),
    documentBody: z.object({ site_id: z.union([z.number().int().positive(), z.string()]).describe(SELECTOR_RULE) }),
    responses: {
      200: {
        description: "What was queued and what was not (success is false when anything failed)",
        schema: queuedSchema.extend({ failed: z.array(z.object({ site_id: z.number().int(), message: z.string() })) }),
      },
      404: { description: "No site with that id" },
    },
    handler: async ({ query }, req) => {
      const body = req.body as Record<string, unknown> | undefined;
      const selector = siteSelector(body && typeof body === "object" && body.site_id !== undefined ? body.site_id : query.site_id);
      let sites: Candidate[];
      if (selector === "all") {
        sites = await ctx.prisma.site.findMany({ where: INVENTORY_SYNC_SITES, select: SELECT, orderBy: { id: "asc" } });
      } else {
        const site = await ctx.prisma.site.findUnique({ where: { id: selector }, select: SELECT });
        if (!site) throw errors.notFound("Site not found.");
        sites = [site];
      }
      const at = Date.now();
      const queued: { site_id: number; job_id: string }[] = [];
      const failed: { site_id: number; message: string }[] = [];
      for (const site of sites) {
        const reason = refusal(site);
        if (reason) {
          failed.push({ site_id: site.id, message: reason });
          continue;
        }
        const id = testInventorySyncJobId(site.id, at);
        try {
          await ctx.queues.add(inventorySyncJob, { site_id: site.id }, { jobId: id });
          queued.push({ site_id: site.id, job_id: id });
        } catch (error) {
          ctx.logger.error("inventory sync could not be queued", { site_id: site.id, error });
          failed.push({ site_id: site.id, message: "The job could not be queued; retry later." });
        }
      }
      ctx.logger.info("inventory sync queued by hand", { site_id: selector, queued, failed });
      return { success: failed.length === 0, queued, failed };
    },
  });
}
