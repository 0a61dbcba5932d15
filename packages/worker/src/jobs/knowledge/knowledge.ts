import type { PayloadOf } from "@mw/platform";
import {
  embedChangedTickets,
  embedDocumentJob,
  embedDocumentJobId,
  Knowledge,
  recordRun,
  reembedAllJobId,
  refreshDocuments,
  reembedTicket,
  syncAll,
  syncAllJob,
  syncDocument,
  syncSite,
  titleConversation,
  type conversationTitleJob,
  type documentsRefreshJob,
  type EmbeddingRun,
  type embeddingsJob,
  type reembedTicketJob,
  type syncSiteJob,
} from "@mw/domains/knowledge";
import type { Job } from "bullmq";
import type { JobContext } from "../../runtime/processor.ts";
import { processServices } from "../../runtime/services.ts";

const byProcess = new WeakMap<ReturnType<typeof processServices>, Knowledge>();

/** One Knowledge per worker process, beside its option store and AI service (its Pinecone client is reused across jobs). */
function knowledgeOf(ctx: Pick<JobContext, "config" | "prisma" | "redis" | "logger">): Knowledge {
  const services = processServices(ctx);
  let knowledge = byProcess.get(services);
  if (!knowledge) {
    knowledge = new Knowledge({ ...ctx, ...services });
    byProcess.set(services, knowledge);
  }
  return knowledge;
}

async function finished<T extends { embedded: number; unchanged: number; removed?: number }>(ctx: Pick<JobContext, "redis" | "config" | "log">, kind: EmbeddingRun["kind"], started: Date, counts: T): Promise<T> {
  await recordRun(ctx.redis, ctx.config.QUEUE_PREFIX, { kind, started_at: started.toISOString(), finished_at: new Date().toISOString(), ...counts });
  ctx.log.info("knowledge embedding run", { kind, ...counts });
  return counts;
}

/**
 * Spec 2, 4.6, every 10 minutes: new or changed tickets. Vectors of another
 * model or dimension (design 10.8: the option changed) start the full
 * re-embed job instead, once per model.
 */
export async function embeddings(_job: Job, _payload: PayloadOf<typeof embeddingsJob>, ctx: Pick<JobContext, "config" | "prisma" | "redis" | "logger" | "queues" | "log" | "progress">) {
  const knowledge = knowledgeOf(ctx);
  const stale = await knowledge.staleCount();
  if (stale > 0) {
    const model = await processServices(ctx).ai.embeddingModel();
    await ctx.queues.add(syncAllJob, { reason: `embedding model is now ${model}: ${stale} vectors to re-embed` }, { jobId: reembedAllJobId(model, Date.now()) });
  }
  const started = new Date();
  return finished(ctx, "embeddings", started, { ...(await embedChangedTickets(knowledge, ctx, ctx.progress)), stale });
}

export async function syncAllSources(_job: Job, payload: PayloadOf<typeof syncAllJob>, ctx: Pick<JobContext, "config" | "prisma" | "redis" | "logger" | "log" | "progress">) {
  const started = new Date();
  ctx.log.info("knowledge sync of every source", { reason: payload.reason });
  return finished(ctx, "sync-all", started, await syncAll(knowledgeOf(ctx), ctx, ctx.progress));
}

export async function syncOneSite(_job: Job, payload: PayloadOf<typeof syncSiteJob>, ctx: Pick<JobContext, "config" | "prisma" | "redis" | "logger" | "log">) {
  return finished(ctx, "sync-site", new Date(), await syncSite(knowledgeOf(ctx), ctx, payload.site_id));
}

export async function reembedOneTicket(_job: Job, payload: PayloadOf<typeof reembedTicketJob>, ctx: Pick<JobContext, "config" | "prisma" | "redis" | "logger" | "log">) {
  return finished(ctx, "reembed-ticket", new Date(), await reembedTicket(knowledgeOf(ctx), ctx, payload.ticket_id));
}

export async function embedDocument(_job: Job, payload: PayloadOf<typeof embedDocumentJob>, ctx: Pick<JobContext, "config" | "prisma" | "redis" | "logger" | "log">) {
  return finished(ctx, "embed-document", new Date(), await syncDocument(knowledgeOf(ctx), ctx, payload.document_id));
}

/** The daily refresh: each document whose text changed is embedded again by a job of its own (keyed by its new update time). */
export async function documentsRefresh(_job: Job, _payload: PayloadOf<typeof documentsRefreshJob>, ctx: Pick<JobContext, "prisma" | "config" | "queues" | "log">) {
  const result = await refreshDocuments(ctx);
  for (const document of result.changed) await ctx.queues.add(embedDocumentJob, { document_id: document.id }, { jobId: embedDocumentJobId(document.id, document.updated_at) });
  ctx.log.info("knowledge documents read again", { checked: result.checked, changed: result.changed.length, failed: result.failed.length });
  return { checked: result.checked, changed: result.changed.map((document) => document.id), failed: result.failed };
}

export async function conversationTitle(_job: Job, payload: PayloadOf<typeof conversationTitleJob>, ctx: Pick<JobContext, "config" | "prisma" | "redis" | "logger">) {
  return titleConversation({ ...ctx, ...processServices(ctx) }, payload.conversation_id);
}
