import type { z } from "zod";
import type { Site } from "@mw/platform/prisma";
import type { Logger } from "@mw/platform/logging";
import type { Connections } from "@mw/platform/connections";
import { clearCredentialRefusals, recordCredentialRefusal } from "./credential-failures.ts";
import { inventorySyncEnabled, orderImportEnabled, trackingSyncEnabled } from "./sync-eligibility.ts";
import { finishRun, startRun, type SYNC_RUN_COUNTS, type SyncKind } from "./sync-runs.ts";

type Deps = Pick<Connections, "prisma" | "queues">;
type CountsOf<K extends SyncKind> = z.infer<(typeof SYNC_RUN_COUNTS)[K]>;

/** How each per-site sync job names itself in its log, whether a site wants it, and what it answers when the site does not. */
const SYNC_JOBS = {
  tracking: {
    name: "tracking sync",
    off: "tracking is not enabled for the site",
    skipped: "tracking_disabled",
    enabled: trackingSyncEnabled,
    flags: (site: Site) => ({ is_active: site.is_active, tracking_sync: site.tracking_sync, tracking_enabled: site.tracking_enabled }),
  },
  inventory: {
    name: "inventory sync",
    off: "inventory sync is not enabled for the site",
    skipped: "inventory_disabled",
    enabled: inventorySyncEnabled,
    flags: (site: Site) => ({ is_active: site.is_active, inventory_sync: site.inventory_sync }),
  },
  orders: {
    name: "order import",
    off: "orders sync is off for the site",
    skipped: "orders_sync_off",
    enabled: orderImportEnabled,
    flags: (site: Site) => ({ is_active: site.is_active, orders_sync: site.orders_sync }),
  },
} as const;

/**
 * The queued job a per-site sync runs as: its id, kept on the run's row, and
 * whether a failure ends it (no attempt follows), which is when the failure
 * is recorded for operators rather than left to the retry.
 */
export interface SyncJob {
  id: string | undefined;
  ends(error: unknown): boolean;
}

/** Why a sync job did nothing: the site is gone, or no longer wants that sync. */
type SyncSkipped<K extends SyncKind> = { skipped: "site_not_found" | (typeof SYNC_JOBS)[K]["skipped"] };

/** One run of a per-site sync job: the site as read when it started, and its `sync_runs` row. */
class SiteSyncRun<K extends SyncKind> {
  constructor(
    private readonly deps: Deps,
    private readonly kind: K,
    private readonly log: Logger,
    readonly site: Site,
    readonly runId: number,
    /** Taken just before the run's row was written. */
    readonly startedAt: Date,
  ) {}

  /**
   * Closes the run as completed with its counts. The run got through, so the
   * site's storefront took its credentials, and the ERP ours if the run reached
   * it (`erpAnswered`): a refusal kept for either ends.
   */
  async finish(counts: CountsOf<K>, reached: { erpAnswered: boolean } = { erpAnswered: false }): Promise<void> {
    await finishRun(this.deps, this.runId, this.kind, { counts });
    await clearCredentialRefusals(this.deps, this.site.id, reached.erpAnswered);
  }

  /**
   * Closes the run as failed, and keeps (and alerts once) an upstream's refusal
   * of the credentials. A failure of either is logged, so the run's own error
   * is the one that surfaces.
   */
  async fail(counts: CountsOf<K>, error: unknown): Promise<void> {
    await finishRun(this.deps, this.runId, this.kind, { counts, error: (error as Error).message }).catch((finish: unknown) =>
      this.log.error("could not close the sync run", { error: (finish as Error).message }),
    );
    await recordCredentialRefusal(this.deps, this.site, SYNC_JOBS[this.kind].name, error).catch((record: unknown) =>
      this.log.error("could not record the refused credentials", { error: (record as Error).message }),
    );
  }
}

/**
 * The opening every per-site sync job shares (tracking sync, inventory sync,
 * order import): the site is read again, so a job queued before the site was
 * disabled or deleted ends quietly (logged, answered as `skipped`); else the
 * run's `sync_runs` row is written.
 */
export async function startSiteSync<K extends SyncKind>(
  deps: Deps,
  kind: K,
  siteId: number,
  jobId: string | undefined,
  log: Logger,
): Promise<SyncSkipped<K> | SiteSyncRun<K>> {
  const job = SYNC_JOBS[kind];
  const site = await deps.prisma.site.findUnique({ where: { id: siteId } });
  if (!site) {
    log.info(`${job.name} skipped: the site no longer exists`);
    return { skipped: "site_not_found" };
  }
  if (!job.enabled(site)) {
    log.info(`${job.name} skipped: ${job.off}`, job.flags(site));
    return { skipped: job.skipped } as SyncSkipped<K>;
  }
  const startedAt = new Date();
  const runId = await startRun(deps, site.id, kind, jobId);
  return new SiteSyncRun(deps, kind, log, site, runId, startedAt);
}
