import { createRedis, getConfig, Queues } from "@mw/platform";
import { OptionStore } from "@mw/shared/options";
import { budgetLockNoticeJob, budgetLockNoticeJobId, importTime, requireTimeTracking } from "@mw/shared/timetracking";
import type { Command } from "./main.ts";

export const timeCommands: Record<string, Command> = {
  "time:import": {
    summary: "run the Harvest time import now (as the 15-minute schedule does): entries, hours used, budgets, over-budget locks",
    options: {},
    async run(prisma) {
      const config = getConfig();
      const redis = createRedis(config.REDIS_URL, { name: "mw-cli" });
      const queues = new Queues(redis, config.QUEUE_PREFIX);
      try {
        const options = new OptionStore(prisma, config.ENCRYPTION_KEY);
        await requireTimeTracking(options);
        const result = await importTime({ prisma, redis, options, config }, async (done, total) => {
          process.stderr.write(`${done}/${total} projects imported\n`);
        });
        // The notices go out through a worker, like the schedule's.
        for (const eventId of result.lock_events) await queues.add(budgetLockNoticeJob, { event_id: eventId }, { jobId: budgetLockNoticeJobId(eventId) });
        return { success: true, ...result };
      } finally {
        await queues.close();
        await redis.quit();
      }
    },
  },
};
