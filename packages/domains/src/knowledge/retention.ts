import { deleteInBatches, retentionCutoff } from "@mw/platform/database";
import type { JobRun } from "@mw/platform/queues";
import type { Connections } from "@mw/platform/connections";

type Deps = Pick<Connections, "prisma" | "config"> & Pick<JobRun, "log">;

/** A conversation takes its messages with it (the foreign key cascades): a statement deletes this many times fewer conversations than rows elsewhere. */
const MESSAGES_PER_CONVERSATION = 20;

/**
 * `knowledge-retention`, daily: assistant conversations nobody added to for RETENTION_CONVERSATIONS_DAYS go with
 * their messages, a batch at a time. The knowledge index (records, documents) is bounded by its sources and stays.
 */
export async function purgeConversations(deps: Deps) {
  const cutoff = retentionCutoff(deps.config.RETENTION_CONVERSATIONS_DAYS);
  const batchSize = Math.max(1, Math.floor(deps.config.RETENTION_BATCH_SIZE / MESSAGES_PER_CONVERSATION));
  const conversations = await deleteInBatches("assistant_conversations", { batchSize, log: deps.log }, cutoff, (limit) =>
    deps.prisma.$executeRaw`DELETE FROM assistant_conversations WHERE updated < ${cutoff} ORDER BY updated LIMIT ${limit}`,
  );
  return { assistant_conversations: conversations };
}
