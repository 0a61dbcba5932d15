import type { PayloadOf } from "@mw/platform";
import {
  runDocumentsRefresh,
  runEmbedDocument,
  runEmbeddings,
  runReembedTicket,
  runSyncAll,
  runSyncSite,
  titleConversation,
  type conversationTitleJob,
  type documentsRefreshJob,
  type embedDocumentJob,
  type embeddingsJob,
  type reembedTicketJob,
  type syncAllJob,
  type syncSiteJob,
} from "@mw/domains/knowledge";
import type { Job } from "bullmq";
import type { JobContext } from "../../runtime/processor.ts";
import { processServices } from "../../runtime/services.ts";

export async function embeddings(_job: Job, _payload: PayloadOf<typeof embeddingsJob>, ctx: Pick<JobContext, "config" | "prisma" | "redis" | "logger" | "queues" | "log" | "progress">) {
  return runEmbeddings({ ...ctx, ...processServices(ctx) });
}

export async function syncAllSources(_job: Job, payload: PayloadOf<typeof syncAllJob>, ctx: Pick<JobContext, "config" | "prisma" | "redis" | "logger" | "log" | "progress">) {
  return runSyncAll({ ...ctx, ...processServices(ctx) }, payload.reason);
}

export async function syncOneSite(_job: Job, payload: PayloadOf<typeof syncSiteJob>, ctx: Pick<JobContext, "config" | "prisma" | "redis" | "logger" | "log">) {
  return runSyncSite({ ...ctx, ...processServices(ctx) }, payload.site_id);
}

export async function reembedOneTicket(_job: Job, payload: PayloadOf<typeof reembedTicketJob>, ctx: Pick<JobContext, "config" | "prisma" | "redis" | "logger" | "log">) {
  return runReembedTicket({ ...ctx, ...processServices(ctx) }, payload.ticket_id);
}

export async function embedDocument(_job: Job, payload: PayloadOf<typeof embedDocumentJob>, ctx: Pick<JobContext, "config" | "prisma" | "redis" | "logger" | "log">) {
  return runEmbedDocument({ ...ctx, ...processServices(ctx) }, payload.document_id);
}

export async function documentsRefresh(_job: Job, _payload: PayloadOf<typeof documentsRefreshJob>, ctx: Pick<JobContext, "prisma" | "config" | "queues" | "log">) {
  return runDocumentsRefresh(ctx);
}

export async function conversationTitle(_job: Job, payload: PayloadOf<typeof conversationTitleJob>, ctx: Pick<JobContext, "config" | "prisma" | "redis" | "logger">) {
  return titleConversation({ ...ctx, ...processServices(ctx) }, payload.conversation_id);
}
