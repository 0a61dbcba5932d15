import type { Connections, PayloadOf } from "@mw/shared";
import {
  embedChangedTickets,
  embedDocumentJob,
  Knowledge,
  loadDocumentRecords,
  recordRun,
  reembedAllJobId,
  reembedTicket,
  syncAll,
  syncAllJob,
  syncSite,
  type conversationTitleJob,
  type EmbeddingRun,
  type embeddingsJob,
  type reembedTicketJob,
  type syncSiteJob,
} from "@mw/shared/knowledge";
import type { Job } from "bullmq";
import { z } from "zod";
import type { JobContext } from "../../runtime/processor.ts";
import { processServices } from "../../runtime/services.ts";

const byProcess = new WeakMap<Connections["prisma"], Knowledge>();

/** One Knowledge per worker process (its Pinecone client is reused across jobs). */
function knowledgeOf(ctx: JobContext): Knowledge {
  let knowledge = byProcess.get(ctx.prisma);
  if (!knowledge) {
    const { options, ai } = processServices(ctx);
    knowledge = new Knowledge({ prisma: ctx.prisma, config: ctx.config, options, ai, logger: ctx.logger });
    byProcess.set(ctx.prisma, knowledge);
  }
  return knowledge;
}

async function finished<T extends { embedded: number; unchanged: number; removed?: number }>(ctx: JobContext, kind: EmbeddingRun["kind"], started: Date, counts: T): Promise<T> {
  await recordRun(ctx.redis, ctx.config.QUEUE_PREFIX, { kind, started_at: started.toISOString(), finished_at: new Date().toISOString(), ...counts });
  ctx.log.info("knowledge embedding run", { kind, ...counts });
  return counts;
}

/**
 * Spec 2, 4.6, every 10 minutes: new or changed tickets. Vectors of another
 * model or dimension (design 10.8: the option changed) start the full
 * re-embed job instead, once per model.
 */
export async function embeddings(_job: Job, _payload: PayloadOf<typeof embeddingsJob>, ctx: JobContext) {
  const knowledge = knowledgeOf(ctx);
  const stale = await knowledge.staleCount();
  if (stale > 0) {
    const model = await processServices(ctx).ai.embeddingModel();
    await ctx.queues.add(syncAllJob, { reason: `embedding model is now ${model}: ${stale} vectors to re-embed` }, { jobId: reembedAllJobId(model, Date.now()) });
  }
  const started = new Date();
  return finished(ctx, "embeddings", started, { ...(await embedChangedTickets(knowledge, { prisma: ctx.prisma, redis: ctx.redis, prefix: ctx.config.QUEUE_PREFIX }, ctx.progress)), stale });
}

export async function syncAllSources(_job: Job, payload: PayloadOf<typeof syncAllJob>, ctx: JobContext) {
  const started = new Date();
  ctx.log.info("knowledge sync of every source", { reason: payload.reason });
  return finished(ctx, "sync-all", started, await syncAll(knowledgeOf(ctx), ctx.prisma, ctx.progress));
}

export async function syncOneSite(_job: Job, payload: PayloadOf<typeof syncSiteJob>, ctx: JobContext) {
  return finished(ctx, "sync-site", new Date(), await syncSite(knowledgeOf(ctx), ctx.prisma, payload.site_id));
}

export async function reembedOneTicket(_job: Job, payload: PayloadOf<typeof reembedTicketJob>, ctx: JobContext) {
  return finished(ctx, "reembed-ticket", new Date(), await reembedTicket(knowledgeOf(ctx), ctx.prisma, payload.ticket_id));
}

export async function embedDocument(_job: Job, payload: PayloadOf<typeof embedDocumentJob>, ctx: JobContext) {
  return finished(ctx, "embed-document", new Date(), await knowledgeOf(ctx).sync(await loadDocumentRecords(ctx.prisma, [payload.document_id])));
}

/** A title of at most 8 words from the first question: the assistant model's, or its first words without a provider key. */
export async function conversationTitle(_job: Job, payload: PayloadOf<typeof conversationTitleJob>, ctx: JobContext) {
  const conversation = await ctx.prisma.assistantConversation.findUnique({ where: { id: payload.conversation_id } });
  if (!conversation) return { skipped: "conversation_deleted" };
  if (conversation.title) return { title: conversation.title, skipped: "titled" };
  const first = await ctx.prisma.assistantMessage.findFirst({ where: { conversation_id: conversation.id, role: "user" }, orderBy: { id: "asc" } });
  if (!first) return { skipped: "no_message" };
  const { ai } = processServices(ctx);
  let title: string;
  if (await ai.hasProvider()) {
    const answer = await ai.askAssistant(
      {
        system: "Give a conversation a short title (2 to 8 words, no quotes, no trailing full stop) from the staff member's first question. Answer JSON: {\"title\": \"...\"}.",
        prompt: first.content,
        jsonSchema: { type: "object", properties: { title: { type: "string" } }, required: ["title"] },
      },
      z.object({ title: z.string().trim().min(1).max(120) }),
    );
    title = answer.value.title;
  } else {
    title = first.content.replace(/\s+/g, " ").trim().split(" ").slice(0, 8).join(" ");
  }
  title = title.replace(/[."']+$/, "").slice(0, 255);
  // Only an untitled conversation: a retried job never overwrites.
  await ctx.prisma.assistantConversation.updateMany({ where: { id: conversation.id, title: null }, data: { title } });
  return { title };
}
