import type { Prisma } from "@mw/platform/prisma";
import type { PrismaClient } from "@mw/platform/database";
import type { JobDefinition, Queues } from "@mw/platform/queues";

/** A periodic job per site (tracking sync, order import), kept in step with the sites table. */
export interface SiteSchedule {
  /** Brings one site's scheduler in line with its row as stored now. */
  sync(prisma: PrismaClient, queues: Queues, siteId: number): Promise<void>;
  /** Every site's scheduler from the database: missing ones created, those of sites that no longer want it removed. */
  reconcile(prisma: PrismaClient, queues: Queues): Promise<{ scheduled: number; removed: number }>;
}

export function siteSchedule(options: {
  job: JobDefinition;
  everyMs: number;
  /** The sites that get the job. */
  sites: Prisma.SiteWhereInput;
  schedulerId: (siteId: number) => string;
  isScheduler: (key: string) => boolean;
}): SiteSchedule {
  const { job } = options;

  async function schedule(queues: Queues, siteId: number): Promise<void> {
    const data = job.payload.parse({ site_id: siteId });
    // Upserting an unchanged scheduler keeps its next run; a new one runs at once, then every period.
    await queues.get(job.queue).upsertJobScheduler(options.schedulerId(siteId), { every: options.everyMs }, { name: job.name, data });
  }

  async function unschedule(queues: Queues, schedulerId: string): Promise<void> {
    const queue = queues.get(job.queue);
    const scheduler = await queue.getJobScheduler(schedulerId);
    if (!scheduler) return;
    await queue.removeJobScheduler(schedulerId);
    // BullMQ drops only a delayed next run; one already due (a new scheduler's first) would still run for a site
    // that no longer wants it. Its id is BullMQ's `repeat:<scheduler>:<next>`; a run already active is left to finish.
    if (scheduler.next) await queue.remove(`repeat:${schedulerId}:${scheduler.next}`);
  }

  return {
    // The row is read again rather than taken from the caller, so when two saves race, the later sync acts on the later state.
    async sync(prisma, queues, siteId) {
      const site = await prisma.site.findFirst({ where: { id: siteId, ...options.sites }, select: { id: true } });
      if (site) await schedule(queues, siteId);
      else await unschedule(queues, options.schedulerId(siteId));
    },
    async reconcile(prisma, queues) {
      const sites = await prisma.site.findMany({ where: options.sites, select: { id: true }, orderBy: { id: "asc" } });
      for (const site of sites) await schedule(queues, site.id);
      const wanted = new Set(sites.map((site) => options.schedulerId(site.id)));
      let removed = 0;
      for (const scheduler of await queues.get(job.queue).getJobSchedulers()) {
        if (!options.isScheduler(scheduler.key) || wanted.has(scheduler.key)) continue;
        await unschedule(queues, scheduler.key);
        removed += 1;
      }
      return { scheduled: sites.length, removed };
    },
  };
}
