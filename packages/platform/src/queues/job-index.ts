import { jobRef, parseJobRef } from "./job-ref.ts";
import type { QueueName } from "../config/queue-names.ts";
import type { Queues } from "./queues.ts";

/** How long an index entry outlives its last addition: longer than the queues keep finished jobs. */
const INDEX_TTL_SECONDS = 30 * 24 * 3600;
/** Entries kept per business key, newest first (a replayed case does not grow without bound). */
const INDEX_KEEP = 50;

function indexKey(queues: Queues, businessKey: string): string {
  return `${queues.prefix}:job-index:${businessKey}`;
}

/**
 * Records that a job of a business object (`dispute.12`, ...) was added under
 * an id no builder can derive (a replay's carries its time), so a search for
 * the object finds it without scanning a queue. Jobs whose ids are derived
 * from the key (the original job, its retries) need no entry: the search
 * derives them, which keeps hot paths free of this write.
 */
export async function indexJob(queues: Queues, businessKey: string, queue: QueueName, id: string, at = Date.now()): Promise<void> {
  const key = indexKey(queues, businessKey);
  await queues.connection
    .multi()
    .zadd(key, at, jobRef(queue, id))
    .zremrangebyrank(key, 0, -INDEX_KEEP - 1)
    .expire(key, INDEX_TTL_SECONDS)
    .exec();
}

/** The indexed jobs of a business object, newest first. */
export async function indexedJobs(queues: Queues, businessKey: string): Promise<{ queue: QueueName; id: string }[]> {
  const members = await queues.connection.zrevrange(indexKey(queues, businessKey), 0, -1);
  return members.map(parseJobRef).filter((ref) => ref !== null);
}
