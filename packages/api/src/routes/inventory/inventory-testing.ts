import { errors } from "@mw/platform";
import { queueTestInventorySyncs } from "@mw/domains/inventory";
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

/** POST /testing/inventory/sync (spec 1, 4.8): full inventory-sync jobs by hand. */
export function inventoryTestingRoutes(api: ApiRouter, ctx: Pick<AppContext, "logger" | "prisma" | "queues">): void {
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
        schema: queuedSchema.extend({
          failed: z.array(z.object({ site_id: z.number().int(), message: z.string() })),
          skipped: z.array(z.object({ site_id: z.number().int(), reason: z.string() })).describe('for "all": every site that does not sync inventory, with why'),
        }),
      },
      404: { description: "No site with that id" },
    },
    example: {
      request: { site_id: "all" },
      response: { success: true, queued: [{ site_id: 1, job_id: "inventory-sync.1.test.1795535133854" }], failed: [{ site_id: 2, message: "The site has no API credentials." }], skipped: [{ site_id: 3, reason: "inventory sync is off for this site" }] },
    },
    handler: async ({ query }, req) => {
      const body = req.body as Record<string, unknown> | undefined;
      const selector = siteSelector(body && typeof body === "object" && body.site_id !== undefined ? body.site_id : query.site_id);
      const { queued, failed, skipped } = await queueTestInventorySyncs(ctx, selector);
      return { success: failed.length === 0, queued, failed, skipped };
    },
  });
}
