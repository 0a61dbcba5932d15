import type { Logger } from "./logger.ts";

/**
 * Runs `stop` once on SIGTERM/SIGINT, bounded by `timeoutMs`; a second signal
 * or the timeout exits at once (work left active comes back through BullMQ's
 * stalled-job check).
 */
export function onShutdown(logger: Logger, timeoutMs: number, stop: () => Promise<void>): void {
  let stopping = false;
  const handler = (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn("second signal, exiting now", { signal });
      process.exit(1);
    }
    stopping = true;
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
