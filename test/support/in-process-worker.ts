import { Writable } from "node:stream";
import { createLogger, openConnections, parseConfig, writeQueueLogFiles, type Connections } from "@mw/platform";
import { JOBS } from "@mw/worker/jobs/index";
import { parseWorkerArgs } from "@mw/worker/runtime/args";
import { drain, type DrainResult } from "@mw/worker/runtime/drain";
import { keepSchedules } from "@mw/worker/runtime/schedule-keeper";
import { startWorkers } from "@mw/worker/runtime/workers";
import { testEnv } from "./env.ts";
import { collectOutput, type Output } from "./processes.ts";

export interface InProcessWorker extends Output {
  connections: Connections;
  /** Closes its BullMQ workers (waiting for the active jobs) and its connections; a second call waits for the first. */
  stop(): Promise<void>;
}

/**
 * The worker's runtime (its catalog, BullMQ workers and schedule keeper, wired
 * as packages/worker/src/main.ts wires them) inside the test process, for a
 * test that needs jobs run and nothing of the process itself: starting a
 * worker process loads every module again, seconds on a loaded machine. The
 * environment is the one `spawnEntry` gives a worker process, and its log lines
 * are read the same way (`output`, `waitFor`). Tests about the process
 * (signals, shutdown, a kill mid-job, startup checks) still spawn it.
 */
export async function startInProcessWorker(env: Record<string, string> = {}): Promise<InProcessWorker> {
  const { config, logger, connections, output, waitFor } = openWorkerConnections(env, "worker");
  const running = startWorkers(connections, JOBS);
  const keeper = await keepSchedules(connections, JOBS, config.WORKER_QUEUES, config.SCHEDULE_RECONCILE_INTERVAL_MS);
  let stopped: Promise<void> | undefined;
  return {
    connections,
    output,
    waitFor,
    stop() {
      stopped ??= (async () => {
        keeper.stop();
        await running.close();
        await connections.close();
        logger.close();
      })();
      return stopped;
    },
  };
}

/**
 * `pnpm worker --drain ARGS` (a cron entry) in the test process: the same drain
 * of at most N jobs per queue, returning its results where the process would
 * log them and exit. Its exit code and start are the process tests' to check.
 */
export async function drainInProcess(args: string[], env: Record<string, string> = {}): Promise<DrainResult[] & Output> {
  const parsed = parseWorkerArgs(["--drain", ...args]);
  if (parsed.mode !== "drain") throw new Error("drainInProcess takes the drain arguments");
  const { logger, connections, output, waitFor } = openWorkerConnections(env, `worker-${parsed.workerId}`);
  try {
    return Object.assign(await drain(connections, JOBS, parsed.limits, parsed.workerId), { output, waitFor });
  } finally {
    await connections.close();
    logger.close();
  }
}

/** The config, logger and connections main.ts opens, with the logger's console lines kept for the test to read. */
function openWorkerConnections(env: Record<string, string>, name: string) {
  const config = parseConfig({ ...process.env, ...testEnv(), LOG_STDOUT: "true", ...env });
  const { append, output, waitFor } = collectOutput();
  const stdout = new Writable({
    write(chunk: Buffer, _encoding, done) {
      append(chunk.toString());
      done();
    },
  });
  const logger = createLogger(name, config, { stdout, stderr: stdout });
  const connections = openConnections(config, name, { logger });
  writeQueueLogFiles(logger, config);
  return { config, logger, connections, output, waitFor };
}
