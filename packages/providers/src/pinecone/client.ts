import type { Got } from "got";
import { z } from "zod";
import { trimEndChars } from "@mw/platform/text";
import type { EgressGuard } from "@mw/platform/egress";
import { createHttpClient, parseUpstream, upstreamCall } from "@mw/platform/http";

/** The data-plane API version we speak (contract sheet, section 3). */
export const PINECONE_API_VERSION = "2025-04";

/** Pinecone's per-request limits: 1000 records and 2 MB per upsert, 1000 ids per delete. */
export const UPSERT_MAX_RECORDS = 1000;
export const UPSERT_MAX_BYTES = 2 * 1024 * 1024;
const DELETE_MAX_IDS = 1000;

export type Metadata = Record<string, string | number | boolean | string[]>;

export interface PineconeVector {
  id: string;
  values: number[];
  metadata?: Metadata;
}

const upserted = z.looseObject({ upsertedCount: z.number() });
const queried = z.looseObject({ matches: z.array(z.looseObject({ id: z.string(), score: z.number(), metadata: z.record(z.string(), z.unknown()).optional() })), namespace: z.string().optional() });
const stats = z.looseObject({
  namespaces: z.record(z.string(), z.looseObject({ vectorCount: z.number() })).default({}),
  dimension: z.number(),
  totalVectorCount: z.number(),
  indexFullness: z.number().optional(),
  metric: z.string().optional(),
});

/** Pinecone's error body `{code, message, details}` (gRPC code, e.g. 3 for a dimension mismatch). */
function pineconeDetail(body: unknown) {
  const parsed = z.looseObject({ code: z.union([z.number(), z.string()]).optional(), message: z.string() }).safeParse(body);
  return parsed.success ? { reason: parsed.data.message, data: { pinecone_code: parsed.data.code ?? null } } : undefined;
}

/** Splits records into upsert requests within both limits (the JSON size is what counts against 2 MB). */
export function upsertBatches(vectors: PineconeVector[], maxBytes = UPSERT_MAX_BYTES): PineconeVector[][] {
  const batches: PineconeVector[][] = [];
  let batch: PineconeVector[] = [];
  let bytes = 64;
  for (const vector of vectors) {
    const size = Buffer.byteLength(JSON.stringify(vector)) + 1;
    if (batch.length && (batch.length >= UPSERT_MAX_RECORDS || bytes + size > maxBytes)) {
      batches.push(batch);
      batch = [];
      bytes = 64;
    }
    batch.push(vector);
    bytes += size;
  }
  if (batch.length) batches.push(batch);
  return batches;
}

/**
 * Pinecone's data plane at the index host (design 10.5): upsert within the
 * request limits, query with a metadata filter, describe stats, delete.
 * Errors are AppErrors with the upstream kind (429 rate_limited, 400 refused
 * with Pinecone's message, e.g. a dimension mismatch).
 */
export class PineconeClient {
  private readonly http: Got;

  /** `egress` guards a host that came from the `ai_vector_host` option (PINECONE_HOST from the environment is trusted). */
  constructor(options: { host: string; apiKey: string; timeoutMs: number; egress?: EgressGuard }) {
    this.http = createHttpClient({
      baseUrl: trimEndChars(options.host, "/"),
      egress: options.egress,
      headers: { "api-key": options.apiKey, "x-pinecone-api-version": PINECONE_API_VERSION, "content-type": "application/json" },
      timeoutMs: options.timeoutMs,
    });
  }

  private async post<S extends z.ZodType>(path: string, body: unknown, schema: S): Promise<z.output<S>> {
    const answer = await upstreamCall("Pinecone", () => this.http.post(path, { json: body }).json(), pineconeDetail);
    return parseUpstream("Pinecone", path, schema, answer);
  }

  /** Answers how many records Pinecone took, over as many requests as the limits need. */
  async upsert(vectors: PineconeVector[], namespace = ""): Promise<number> {
    let count = 0;
    for (const batch of upsertBatches(vectors)) count += (await this.post("vectors/upsert", { vectors: batch, namespace }, upserted)).upsertedCount;
    return count;
  }

  async query(request: { vector: number[]; topK: number; filter?: Record<string, unknown>; namespace?: string }) {
    return this.post("query", { namespace: request.namespace ?? "", topK: request.topK, vector: request.vector, includeMetadata: true, includeValues: false, ...(request.filter && { filter: request.filter }) }, queried);
  }

  async describeIndexStats() {
    return this.post("describe_index_stats", {}, stats);
  }

  async delete(ids: string[], namespace = ""): Promise<void> {
    for (let start = 0; start < ids.length; start += DELETE_MAX_IDS) await this.post("vectors/delete", { ids: ids.slice(start, start + DELETE_MAX_IDS), namespace }, z.unknown());
  }
}
