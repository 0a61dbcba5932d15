import { openConnections, getConfigOrExit, onShutdown, servicesOrExit, writeQueueLogFiles } from "@mw/platform";
import { JOBS } from "./jobs/index.ts";
import { parseWorkerArgs, UsageError, type WorkerArgs } from "./runtime/args.ts";
import { drain } from "./runtime/drain.ts";
import { startWorkers } from "./runtime/workers.ts";
import { keepSchedules } from "./runtime/schedule-keeper.ts";

let args: WorkerArgs;
try {
  args = parseWorkerArgs(process.argv.slice(2));
} catch (error) {
  console.error(error instanceof UsageError || error instanceof TypeError ? error.message : String(error));
  process.exit(64);
}

const config = getConfigOrExit("worker");
await servicesOrExit(config, { database: true });
const connections = openConnections(config, args.mode === "drain" ? `worker-${args.workerId}` : "worker");
writeQueueLogFiles(connections.logger, config);

if (args.mode === "drain") {
  const results = await drain(connections, JOBS, args.limits, args.workerId);
  connections.logger.info("drain finished", { worker_id: args.workerId, results });
  await connections.close();
  process.exitCode = 0;
} else {
  const running = startWorkers(connections, JOBS);
  const keeper = await keepSchedules(connections, JOBS, config.WORKER_QUEUES, config.SCHEDULE_RECONCILE_INTERVAL_MS);
  onShutdown(connections.logger, config.SHUTDOWN_TIMEOUT_MS, async () => {
    keeper.stop();
    await running.close();
    await connections.close();
  });
  process.send?.("ready"); // scripts/start.ts prints its banner once every process says so
}
