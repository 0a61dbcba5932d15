/**
 * The platform's queues. Each name is part of Redis keys (`<prefix>:<queue>:...`,
 * on a cluster `{<prefix>:<queue>}:<queue>:...`, see queueKeyPrefix)
 * holding jobs, schedulers and history: NEVER rename or remove one. A renamed
 * queue orphans every job and scheduler stored under the old name. Add new
 * queues at the end.
 */
export const QUEUE_NAMES = [
  "orders",
  "disputes",
  "inventory",
  "tracking",
  "urgency",
  "reports",
  "notifications",
  "webhooks",
  "timetracking",
  "dashboard",
  "knowledge",
  "retention",
] as const;

export type QueueName = (typeof QUEUE_NAMES)[number];
