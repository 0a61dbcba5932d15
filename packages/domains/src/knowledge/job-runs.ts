import type { JobRun } from "@mw/platform/queues";
import type { Connections } from "@mw/platform/connections";
import type { AiService } from "../ai/index.ts";
import type { OptionStore } from "../options/index.ts";
import { refreshDocuments } from "./documents.ts";
import { embedDocumentJob, embedDocumentJobId, reembedAllJobId, syncAllJob } from "./jobs.ts";
import { Knowledge } from "./service.ts";
import { embedChangedTickets, recordRun, reembedTicket, syncAll, syncDocument, syncSite, type EmbeddingRun } from "./sync.ts";

/** What the knowledge jobs use: the process's connections and its option store and AI service (their caches are what make them cheap). */
type KnowledgeJobDeps = Pick<Connections, "config" | "prisma" | "redis" | "logger"> & Pick<JobRun, "log"> & { options: OptionStore; ai: AiService };

const byProcess = new WeakMap<AiService, Knowledge>();

/** One Knowledge per worker process, beside its option store and AI service (its Pinecone client is reused across jobs). */
function knowledgeOf(deps: KnowledgeJobDeps): Knowledge {
  let knowledge = byProcess.get(deps.ai);
  if (!knowledge) {
    knowledge = new Knowledge(deps);
    byProcess.set(deps.ai, knowledge);
  }
  return knowledge;
}

async function finished<T extends { embedded: number; unchanged: number; removed?: number }>(deps: Pick<KnowledgeJobDeps, "redis" | "config" | "log">, kind: EmbeddingRun["kind"], started: Date, counts: T): Promise<T> {
  await recordRun(deps.redis, deps.config.QUEUE_PREFIX, { kind, started_at: started.toISOString(), finished_at: new Date().toISOString(), ...counts });
  deps.log.info("knowledge embedding run", { kind, ...counts });
  return counts;
}

/**
 * Spec 2, 4.6, every 10 minutes: new or changed tickets. Vectors of another
 * model or dimension (design 10.8: the option changed) start the full
 * re-embed job instead, once per model.
 */
export async function runEmbeddings(deps: KnowledgeJobDeps & Pick<Connections, "queues"> & Pick<JobRun, "progress">) {
  const knowledge = knowledgeOf(deps);
  const stale = await knowledge.staleCount();
  if (stale > 0) {
    const model = await deps.ai.embeddingModel();
    await deps.queues.add(syncAllJob, { reason: `embedding model is now ${model}: ${stale} vectors to re-embed` }, { jobId: reembedAllJobId(model, Date.now()) });
  }
  const started = new Date();
  return finished(deps, "embeddings", started, { ...(await embedChangedTickets(knowledge, deps, deps.progress)), stale });
}

export async function runSyncAll(deps: KnowledgeJobDeps & Pick<JobRun, "progress">, reason: string) {
  const started = new Date();
  deps.log.info("knowledge sync of every source", { reason });
  return finished(deps, "sync-all", started, await syncAll(knowledgeOf(deps), deps, deps.progress));
}

export async function runSyncSite(deps: KnowledgeJobDeps, siteId: number) {
  return finished(deps, "sync-site", new Date(), await syncSite(knowledgeOf(deps), deps, siteId));
}

export async function runReembedTicket(deps: KnowledgeJobDeps, ticketId: number) {
  return finished(deps, "reembed-ticket", new Date(), await reembedTicket(knowledgeOf(deps), deps, ticketId));
}

export async function runEmbedDocument(deps: KnowledgeJobDeps, documentId: number) {
  return finished(deps, "embed-document", new Date(), await syncDocument(knowledgeOf(deps), deps, documentId));
}

/** The daily refresh: each document whose text changed is embedded again by a job of its own (keyed by its new update time). */
export async function runDocumentsRefresh(deps: Pick<Connections, "prisma" | "config" | "queues"> & Pick<JobRun, "log">) {
  const result = await refreshDocuments(deps);
  for (const document of result.changed) await deps.queues.add(embedDocumentJob, { document_id: document.id }, { jobId: embedDocumentJobId(document.id, document.updated_at) });
  deps.log.info("knowledge documents read again", { checked: result.checked, changed: result.changed.length, failed: result.failed.length });
  return { checked: result.checked, changed: result.changed.map((document) => document.id), failed: result.failed };
}
