import { purgeConversations, type knowledgeRetentionJob } from "@mw/domains/knowledge";
import type { PayloadOf } from "@mw/platform";
import type { Job } from "bullmq";
import type { JobContext } from "../../runtime/processor.ts";

/** `knowledge-retention`: assistant conversations past RETENTION_CONVERSATIONS_DAYS go. */
export async function knowledgeRetention(_job: Job, _payload: PayloadOf<typeof knowledgeRetentionJob>, ctx: Pick<JobContext, "prisma" | "config" | "log">) {
  return purgeConversations(ctx);
}
