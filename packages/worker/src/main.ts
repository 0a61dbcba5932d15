import { openConnections, getConfigOrExit, onShutdown } from "@mw/shared";
import { reconcileTrackingSchedules } from "@mw/shared/tracking";
import { parseWorkerArgs, UsageError, type WorkerArgs } from "./runtime/args.ts";
import { drain } from "./runtime/drain.ts";
import { startWorkers } from "./runtime/workers.ts";
import { ensureSchedules } from "./runtime/schedules.ts";

let args: WorkerArgs;
try {
  args = parseWorkerArgs(process.argv.slice(2));
} catch (error) {
  console.error(error instanceof UsageError || error instanceof TypeError ? error.message : String(error));
  process.exit(64);
}

const config = getConfigOrExit();
const connections = openConnections(config, args.mode === "drain" ? `worker-${args.workerId}` : "worker");

if (args.mode === "drain") {
  const results = await drain(connections, args.limits, args.workerId);
  connections.logger.info("drain finished", { worker_id: args.workerId, results });
  await connections.close();
  process.exitCode = 0;
} else {
  const running = startWorkers(connections);
  await ensureSchedules(connections.queues, config.WORKER_QUEUES);
  if (config.WORKER_QUEUES.includes("tracking")) {
    // Per-site schedulers follow the sites table: back after a Redis loss, gone for sites changed while no API could update them.
    await reconcileTrackingSchedules(connections.prisma, connections.queues).then(
      (result) => connections.logger.info("tracking schedules reconciled", result),
      (error: unknown) => connections.logger.error("tracking schedules could not be reconciled", { error }),
    );
  }
  onShutdown(connections.logger, config.SHUTDOWN_TIMEOUT_MS, async () => {
    await running.close();
    await connections.close();
  });
}
