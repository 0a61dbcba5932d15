import { parseArgs } from "node:util";
import { QUEUE_NAMES, type QueueName } from "@mw/platform";

/** The spec's cron arguments, mapped onto our queues (docs/decisions.md). */
const LEGACY_FLAGS: Record<string, QueueName> = {
  "inventory-max-jobs": "inventory",
  "dispute-max-jobs": "disputes",
  "webhook-max-jobs": "webhooks",
};

export type WorkerArgs =
  | { mode: "run" }
  | { mode: "drain"; workerId: string; limits: Map<QueueName, number> };

export class UsageError extends Error {}

export function parseWorkerArgs(argv: string[]): WorkerArgs {
  const queueFlags = Object.fromEntries(QUEUE_NAMES.map((queue) => [`${queue}-max-jobs`, queue] as const));
  const flags: Record<string, QueueName> = { ...queueFlags, ...LEGACY_FLAGS };
  const { values } = parseArgs({
    args: argv,
    options: {
      drain: { type: "boolean" },
      "worker-id": { type: "string" },
      ...Object.fromEntries(Object.keys(flags).map((flag) => [flag, { type: "string" as const }])),
    },
    strict: true,
  });
  const given = Object.keys(flags).filter((flag) => values[flag as keyof typeof values] !== undefined);
  if (!values.drain) {
    if (given.length || values["worker-id"]) throw new UsageError("--worker-id and --*-max-jobs only apply with --drain");
    return { mode: "run" };
  }
  const limits = new Map<QueueName, number>();
  for (const flag of given) {
    const raw = String(values[flag as keyof typeof values]);
    if (!/^\d+$/.test(raw)) throw new UsageError(`--${flag} must be a whole number, got "${raw}"`);
    limits.set(flags[flag]!, Number(raw));
  }
  if (!limits.size) throw new UsageError(`--drain needs at least one of --${Object.keys(flags).join(", --")}`);
  const workerId = String(values["worker-id"] ?? `drain-${process.pid}`);
  // The id names the log file, so it stays a plain token.
  if (!/^[A-Za-z0-9_.-]{1,64}$/.test(workerId)) throw new UsageError("--worker-id must be 1-64 letters, digits, _ . or -");
  return { mode: "drain", workerId, limits };
}
