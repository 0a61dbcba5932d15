import { AppError, errors, jobRef } from "@mw/platform";
import { EMBEDDING_DIMENSIONS } from "@mw/domains/ai";
import { requestSiteSync, SOURCES, syncAllJob, syncAllJobId } from "@mw/domains/knowledge";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { adminAction, type AdminAction } from "../../http/admin-ajax.ts";
import { knowledgeOf } from "./knowledge-of.ts";

const queued = z.object({ job_id: z.string(), queued: z.boolean() });

/** Spec 2, 4.4 "Vector index": test the connection, sync every source or one site (jobs, followed with get_job), the index's stats. */
export function knowledgeActions(ctx: Pick<AppContext, "ai" | "config" | "logger" | "options" | "prisma" | "queues">): AdminAction[] {
  const knowledge = knowledgeOf(ctx);
  return [
    adminAction({
      name: "vector_test_connection",
      group: "Vector index",
      summary: "Ask the vector index for its stats now (Pinecone's describe_index_stats, or the embedded table): reachable, key accepted, dimension 768",
      input: z.object({}),
      data: z.object({ connected: z.literal(true), index: z.enum(["pinecone", "embedded"]), host: z.string().nullable(), dimension: z.number().int().nullable(), dimension_ok: z.boolean(), vector_count: z.number().int(), message: z.string() }),
      example: { input: {}, data: { connected: true, index: "pinecone", host: "https://kb-abc123.svc.us-east-1.pinecone.io", dimension: 768, dimension_ok: true, vector_count: 1520, message: "Connected to Pinecone: 1520 vectors, dimension 768." } },
      handler: async () => {
        const [index, settings, model] = await Promise.all([knowledge.index(), knowledge.pineconeSettings(), ctx.ai.embeddingModel()]);
        let stats;
        try {
          stats = await index.stats(model);
        } catch (error) {
          if (error instanceof AppError) throw new AppError(502, error.code, `Vector index connection failed: ${error.message}`);
          throw error;
        }
        const dimensionOk = stats.dimension === null || stats.dimension === EMBEDDING_DIMENSIONS;
        const name = index.kind === "pinecone" ? "Pinecone" : "the embedded index";
        const message = `Connected to ${name}: ${stats.vector_count} vectors${stats.dimension === null ? "" : `, dimension ${stats.dimension}`}.${dimensionOk ? "" : ` The index must have dimension ${EMBEDDING_DIMENSIONS}: create it again with ${EMBEDDING_DIMENSIONS}.`}`;
        return { connected: true as const, index: index.kind, host: settings?.host ?? null, dimension: stats.dimension, dimension_ok: dimensionOk, vector_count: stats.vector_count, message };
      },
    }),
    adminAction({
      name: "vector_sync_all",
      group: "Vector index",
      summary: "Queue a sync of every source (tickets, managed sites, wiki, docs, brand): changed records embedded, removed ones deleted; follow it with get_job",
      input: z.object({}),
      data: queued,
      example: { input: {}, data: { job_id: "knowledge:sync-all.1764064800000", queued: true } },
      handler: async () => {
        const job = await ctx.queues.add(syncAllJob, { reason: "vector_sync_all" }, { jobId: syncAllJobId(Date.now()) });
        return { job_id: jobRef("knowledge", job.id!), queued: true };
      },
    }),
    adminAction({
      name: "vector_sync_site",
      group: "Vector index",
      summary: "Queue the embedding of one managed site's record (site-<id>); follow it with get_job",
      input: z.object({ site_id: z.coerce.number().int().positive() }),
      data: queued,
      example: { input: { site_id: 3 }, data: { job_id: "knowledge:sync-site.3.1764064800000", queued: true } },
      handler: async ({ site_id }) => {
        const requested = await requestSiteSync(ctx, site_id);
        if (requested.outcome === "no_site") throw errors.notFound(`Site ${site_id} not found.`);
        return { job_id: jobRef("knowledge", requested.jobId), queued: true };
      },
    }),
    adminAction({
      name: "vector_get_stats",
      group: "Vector index",
      summary: "Vector count and namespace of the index, with records per source for the current embedding model",
      input: z.object({}),
      data: z.object({ index: z.enum(["pinecone", "embedded"]), namespace: z.string(), vector_count: z.number().int(), dimension: z.number().int().nullable(), embedding_model: z.string(), counts: z.record(z.enum(SOURCES), z.number().int()) }),
      example: { input: {}, data: { index: "embedded", namespace: "", vector_count: 1520, dimension: 768, embedding_model: "gemini-embedding-001", counts: { ticket: 1480, site: 30, wiki: 6, docs: 3, brand: 1 } } },
      handler: async () => {
        const [index, model, counts] = await Promise.all([knowledge.index(), ctx.ai.embeddingModel(), knowledge.counts()]);
        const stats = await index.stats(model);
        return { index: index.kind, namespace: stats.namespace, vector_count: stats.vector_count, dimension: stats.dimension, embedding_model: model, counts };
      },
    }),
  ];
}
