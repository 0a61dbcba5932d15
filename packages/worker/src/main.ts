import { createServices, getConfigOrExit, onShutdown } from "@mw/shared";
import { parseWorkerArgs, UsageError, type WorkerArgs } from "./args.ts";
import { drain } from "./drain.ts";
import { startWorkers } from "./runtime.ts";
import { ensureSchedules } from "./schedules.ts";

let args: WorkerArgs;
try {
  args = parseWorkerArgs(process.argv.slice(2));
} catch (error) {
  console.error(error instanceof UsageError || error instanceof TypeError ? error.message : String(error));
  process.exit(64);
}

const config = getConfigOrExit();
const services = createServices(config, args.mode === "drain" ? `worker-${args.workerId}` : "worker");

if (args.mode === "drain") {
  const results = await drain(services, args.limits, args.workerId);
  services.logger.info("drain finished", { worker_id: args.workerId, results });
  await services.close();
  process.exitCode = 0;
} else {
  const running = startWorkers(services);
  await ensureSchedules(services.queues, config.WORKER_QUEUES);
  onShutdown(services.logger, config.SHUTDOWN_TIMEOUT_MS, async () => {
    await running.close();
    await services.close();
  });
}
