import { QUEUE_NAMES, type QueueName } from "../config/queue-names.ts";

/**
 * How an admin action names a job it started, for get_job: `<queue>:<job id>`.
 * Our job ids never hold ':' (see jobId), so the queue is found without
 * searching every queue for the id.
 */
export function jobRef(queue: QueueName, id: string): string {
  return `${queue}:${id}`;
}

export function parseJobRef(ref: string): { queue: QueueName; id: string } | null {
  const colon = ref.indexOf(":");
  const queue = ref.slice(0, colon) as QueueName;
  const id = ref.slice(colon + 1);
  return colon > 0 && id && QUEUE_NAMES.includes(queue) ? { queue, id } : null;
}
