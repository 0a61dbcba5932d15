import { createRedis, Queues } from "@mw/platform";
import { openOptionStore } from "@mw/domains/options";
import { budgetLockNoticeJob, budgetLockNoticeJobId, importTime, requireTimeTracking } from "@mw/domains/timetracking";
import type { Command } from "./command.ts";

export const timeCommands: Record<string, Command> = {
  "time:import": {
    options: {},
    async run(deps) {
      const redis = createRedis(deps.config.REDIS_URL, { name: "mw-cli" });
      const queues = new Queues(redis, deps.config.QUEUE_PREFIX);
      try {
        const options = openOptionStore(deps);
        await requireTimeTracking(options);
        const result = await importTime({ ...deps, redis, options }, async (done, total) => {
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
