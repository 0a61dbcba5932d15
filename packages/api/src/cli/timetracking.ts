import { openOptionStore } from "@mw/domains/options";
import { budgetLockNoticeJob, budgetLockNoticeJobId, importTime, requireTimeTracking } from "@mw/domains/timetracking";
import type { Command } from "./command.ts";

export const timeCommands: Record<string, Command> = {
  "time:import": {
    queues: true,
    options: {},
    async run(deps, _values, _args, io) {
      const options = openOptionStore(deps);
      await requireTimeTracking(options);
      const result = await importTime({ ...deps, redis: deps.queues.connection, options }, async (done, total) => {
        io.err(`${done}/${total} projects imported`);
      });
      // The notices go out through a worker, like the schedule's.
      for (const eventId of result.lock_events) await deps.queues.add(budgetLockNoticeJob, { event_id: eventId }, { jobId: budgetLockNoticeJobId(eventId) });
      return { success: true, ...result };
    },
  },
};
