import { z } from "zod";
import { defineJob, jobId } from "@mw/platform/queues";

/** Spec 2, 4.6 and 8: every 10 minutes, new or changed tickets are embedded (or everything, after a model change). */
export const embeddingsJob = defineJob({ queue: "knowledge", name: "embeddings", payload: z.object({}), schedule: { every: 10 * 60_000 } });

/** Every source into the index (admin vector_sync_all, and the full re-embed after a model or dimension change). */
export const syncAllJob = defineJob({ queue: "knowledge", name: "sync-all", payload: z.object({ reason: z.string().max(200) }), options: { attempts: 3 } });

/** Admin action: a full sync asked for now (the job is idempotent: a second one finds little to do). */
export const syncAllJobId = (requestedAt: number) => jobId("sync-all", requestedAt);
/** The re-embed a model change starts: one per model and hour (the cron, every 10 minutes, finds it already queued or done). */
export const reembedAllJobId = (model: string, at: number) => jobId("reembed-all", model, Math.floor(at / 3_600_000));

/** One managed site's `site-<id>` record (vector_sync_site). */
export const syncSiteJob = defineJob({ queue: "knowledge", name: "sync-site", payload: z.object({ site_id: z.number().int().positive() }) });
export const syncSiteJobId = (siteId: number, requestedAt: number) => jobId("sync-site", siteId, requestedAt);

/** Spec 2, 4.6 `reembed`: one ticket embedded again whatever its content hash says. */
export const reembedTicketJob = defineJob({ queue: "knowledge", name: "reembed-ticket", payload: z.object({ ticket_id: z.number().int().positive() }) });
export const reembedTicketJobId = (ticketId: number, requestedAt: number) => jobId("reembed-ticket", ticketId, requestedAt);
/** One re-embed of a ticket waits or runs at a time (the deduplication key of its jobs). */
export const reembedTicketKey = (ticketId: number) => jobId("reembed-ticket", ticketId);

/** Daily (KNOWLEDGE_REFRESH_SCHEDULE): every added document read again from its file or URL; a changed one is stored and embedded again. */
export const documentsRefreshJob = defineJob({ queue: "knowledge", name: "documents-refresh", payload: z.object({}), schedule: { setting: "KNOWLEDGE_REFRESH_SCHEDULE" } });

/** A document added by `pnpm cli knowledge:add`. */
export const embedDocumentJob = defineJob({ queue: "knowledge", name: "embed-document", payload: z.object({ document_id: z.number().int().positive() }) });
export const embedDocumentJobId = (documentId: number, updatedAt: Date) => jobId("embed-document", documentId, updatedAt.getTime());

/** Spec 2, 4.6: a conversation is titled from its first message, by the assistant model (design 10.2: AI calls off the request path). */
export const conversationTitleJob = defineJob({ queue: "knowledge", name: "conversation-title", payload: z.object({ conversation_id: z.number().int().positive() }) });
export const conversationTitleJobId = (conversationId: number) => jobId("conversation-title", conversationId);

/** Daily (RETENTION_SCHEDULE): assistant conversations past their retention. */
export const knowledgeRetentionJob = defineJob({ queue: "retention", name: "knowledge-retention", payload: z.object({}), schedule: { setting: "RETENTION_SCHEDULE" } });
