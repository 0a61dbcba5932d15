import type { Logger } from "../logging/logger.ts";

/** How often a process checks that the process that started it is still there. */
const PARENT_CHECK_MS = 1000;

/**
 * Runs `stop` once on SIGTERM/SIGINT, bounded by `timeoutMs`; the same signal
 * again (a second Ctrl-C) or the timeout exits at once (work left active comes back through BullMQ's
 * stalled-job check). A process whose parent dies (a supervisor or `pnpm`
 * killed without passing the signal on) is re-parented; it shuts down the
 * same way rather than run on as an orphan nobody can stop.
 */
export function onShutdown(logger: Logger, timeoutMs: number, stop: () => Promise<void>): void {
  let stopping: NodeJS.Signals | undefined;
  const parent = process.ppid;
  const orphaned = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(orphaned);
    logger.warn("parent process gone, shutting down", { parent_pid: parent });
    handler("SIGTERM");
  }, PARENT_CHECK_MS);
  orphaned.unref();
  const handler = (signal: NodeJS.Signals) => {
    if (stopping) {
      // One Ctrl-C reaches a process twice under `pnpm start`: SIGINT from the terminal to the whole
      // process group, then SIGTERM from the start script. Only the same signal again means "now".
      if (signal !== stopping) return logger.info("already shutting down", { signal });
      logger.warn("second signal, exiting now", { signal });
      process.exit(1);
    }
    stopping = signal;
    clearInterval(orphaned);
    logger.info("shutting down", { signal, timeout_ms: timeoutMs });
    const timer = setTimeout(() => {
      logger.error("shutdown timed out, exiting", { timeout_ms: timeoutMs });
      process.exit(1);
    }, timeoutMs);
    timer.unref();
    stop().then(
      () => {
        logger.info("shut down cleanly");
        logger.on("finish", () => process.exit(0));
        logger.end();
        setTimeout(() => process.exit(0), 1_000).unref();
      },
      (error: unknown) => {
        logger.error("shutdown failed", { error });
        process.exit(1);
      },
    );
  };
  process.on("SIGTERM", handler);
  process.on("SIGINT", handler);
}
