import { errors, withTimeout } from "@mw/platform/core";
import { Prisma } from "@mw/platform/database";
import type { Connections } from "@mw/platform/connections";
import { SITE_KEYS_CHANGED } from "./api-keys.ts";
import { clearSiteCredentialRefusal } from "./credential-failures.ts";
import { siteCreateData, siteUpdateData, type SiteCreateInput, type SiteUpdateInput } from "./input.ts";
import { requireSite } from "./site-reads.ts";
import type { SiteSchedule } from "./site-schedules.ts";

/**
 * What a change to a site needs. `siteSchedules` are every per-site job
 * scheduler (SITE_SCHEDULES of the schedules domain): they are defined by the
 * domains whose jobs they run, which themselves build on this one, so they
 * come in here rather than being imported.
 */
type SiteWriteDeps = Pick<Connections, "config" | "prisma" | "queues" | "invalidation" | "logger"> & { siteSchedules: readonly SiteSchedule[] };

function knownError(error: unknown, code: string): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === code;
}

const SCHEDULE_UPDATE_TIMEOUT_MS = 3000;

/**
 * After a change, the site's per-site job schedulers (tracking sync, order
 * import) follow its row. The change is committed and stays the answer; a
 * scheduler that cannot be updated (Redis down) is logged, shows as
 * `next_run: null` in GET /tracking/status, and is put right by the next save
 * or the next worker start (reconcile). Bounded in time: BullMQ waits without
 * end for a Redis it never reached.
 */
async function keepSchedulesInStep(deps: SiteWriteDeps, siteId: number): Promise<void> {
  try {
    await withTimeout(Promise.all(deps.siteSchedules.map((schedule) => schedule.sync(deps.prisma, deps.queues, siteId))), SCHEDULE_UPDATE_TIMEOUT_MS);
  } catch (error) {
    deps.logger.error("site schedules not updated after a site change; the next save or worker start corrects them", { site_id: siteId, error });
  }
}

export async function createSite(deps: SiteWriteDeps, input: SiteCreateInput): Promise<{ id: number }> {
  const data = siteCreateData(input, deps.config.ENCRYPTION_KEY);
  const site = await deps.prisma.site.create({ data, select: { id: true } }).catch((error: unknown) => {
    throw errors.cannotSave("rest_cannot_create", "The site could not be created.", error);
  });
  deps.logger.info("site created", { site_id: site.id, platform: input.platform, name: input.name });
  await keepSchedulesInStep(deps, site.id);
  return site;
}

/**
 * A partial update: absent members keep their value (siteUpdateData). New
 * credentials end a refusal kept for the old ones, in the same transaction, so
 * /readyz stops naming the site and the next run checks the new ones.
 */
export async function updateSite(deps: SiteWriteDeps, id: number, input: SiteUpdateInput): Promise<void> {
  const data = siteUpdateData(input, await requireSite(deps, id), deps.config.ENCRYPTION_KEY);
  const update = deps.prisma.site.update({ where: { id }, data });
  const written = data.api_credentials === undefined ? update : deps.prisma.$transaction([update, clearSiteCredentialRefusal(deps, id)]);
  await written.catch((error: unknown) => {
    if (knownError(error, "P2025")) throw errors.notFound("Site not found.");
    throw errors.cannotSave("rest_cannot_update", "The site could not be updated.", error);
  });
  deps.logger.info("site updated", { site_id: id, fields: Object.keys(input) });
  await keepSchedulesInStep(deps, id);
}

/**
 * Deletes a site with its API keys, which stop working in every process at
 * once. A site with orders stays (`has_orders`): orders keep their site (ON
 * DELETE RESTRICT), they are history the ERP export and the stats still read.
 */
export async function deleteSite(deps: SiteWriteDeps, id: number): Promise<{ outcome: "deleted" | "has_orders" }> {
  try {
    await deps.prisma.site.delete({ where: { id }, select: { id: true } });
  } catch (error) {
    if (knownError(error, "P2025")) throw errors.notFound("Site not found.");
    if (knownError(error, "P2003")) return { outcome: "has_orders" };
    throw error;
  }
  await deps.invalidation.publish(SITE_KEYS_CHANGED);
  deps.logger.info("site deleted", { site_id: id });
  await keepSchedulesInStep(deps, id);
  return { outcome: "deleted" };
}

/** Activates an inactive site or deactivates an active one; the new state. */
export async function toggleSiteStatus(deps: SiteWriteDeps, id: number): Promise<{ is_active: boolean }> {
  // One statement, so two operators toggling at once flip twice rather than both writing the same value.
  const changed = await deps.prisma.$executeRaw`UPDATE sites SET is_active = NOT is_active, updated_at = UTC_TIMESTAMP(3) WHERE id = ${id}`;
  const site = changed ? await deps.prisma.site.findUnique({ where: { id }, select: { is_active: true } }) : null;
  if (!site) throw errors.notFound("Site not found.");
  deps.logger.info("site toggled", { site_id: id, is_active: site.is_active });
  await keepSchedulesInStep(deps, id);
  return site;
}

/**
 * Records when a site's order import or full inventory sync last completed
 * (the site list's `order_last_run`, `inventory_last_run`). Neither column
 * decides which jobs a site has, so the schedulers are left as they are.
 * `updateMany`: a site deleted during its run is no error.
 */
export async function markLastRun(deps: Pick<Connections, "prisma">, siteId: number, sync: "orders" | "inventory", at: Date): Promise<void> {
  const data = sync === "orders" ? { order_last_run: at } : { inventory_last_run: at };
  await deps.prisma.site.updateMany({ where: { id: siteId }, data });
}
