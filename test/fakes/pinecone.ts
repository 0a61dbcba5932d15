import { FakeServer, parseObject, type FakeAnswer, type FakeRequest } from "./fake-server.ts";

type Metadata = Record<string, unknown>;
interface StoredVector {
  id: string;
  values: number[];
  metadata: Metadata;
}

/** A metadata filter of the contract sheet: $eq $ne $gt $gte $lt $lte $in $nin $exists $and $or. */
function matches(metadata: Metadata, filter: Record<string, unknown>): boolean {
  return Object.entries(filter).every(([key, condition]) => {
    if (key === "$and") return (condition as Record<string, unknown>[]).every((part) => matches(metadata, part));
    if (key === "$or") return (condition as Record<string, unknown>[]).some((part) => matches(metadata, part));
    const value = metadata[key];
    const ops = typeof condition === "object" && condition !== null && !Array.isArray(condition) ? (condition as Record<string, unknown>) : { $eq: condition };
    return Object.entries(ops).every(([op, operand]) => {
      switch (op) {
        case "$eq":
          return Array.isArray(value) ? value.includes(operand) : value === operand;
        case "$ne":
          return value !== operand;
        case "$in":
          return (operand as unknown[]).some((item) => (Array.isArray(value) ? value.includes(item) : value === item));
        case "$nin":
          return !(operand as unknown[]).some((item) => (Array.isArray(value) ? value.includes(item) : value === item));
        case "$exists":
          return (value !== undefined) === operand;
        case "$gt":
          return (value as number) > (operand as number);
        case "$gte":
          return (value as number) >= (operand as number);
        case "$lt":
          return (value as number) < (operand as number);
        case "$lte":
          return (value as number) <= (operand as number);
      }
      throw new Error(`unsupported filter operator ${op}`);
    });
  });
}

function cosine(a: number[], b: number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i += 1) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}

/**
 * Pinecone's data plane (contract sheet, section 3) for one index of a fixed
 * dimension and cosine metric: `Api-Key` checked (401 otherwise), upsert
 * within 1000 records and 2 MB, query with metadata filters, stats, delete,
 * namespaces. Errors in Pinecone's shape `{code, message, details}`; a
 * vector of the wrong length is refused as the real index refuses it.
 * `throttle(n)` answers the next n requests 429, as over 100 requests/s does.
 */
export class FakePinecone extends FakeServer {
  readonly namespaces = new Map<string, Map<string, StoredVector>>();
  private throttled = 0;

  constructor(
    readonly apiKey: string,
    readonly dimension = 768,
  ) {
    super();
    this.route("POST", "/vectors/upsert", (request) => this.upsert(request));
    this.route("POST", "/query", (request) => this.query(request));
    this.route("POST", "/describe_index_stats", () => this.stats());
    this.route("POST", "/vectors/delete", (request) => this.delete(request));
  }

  throttle(requests: number): this {
    this.throttled = requests;
    return this;
  }

  namespace(name = ""): Map<string, StoredVector> {
    let stored = this.namespaces.get(name);
    if (!stored) this.namespaces.set(name, (stored = new Map()));
    return stored;
  }

  private error(status: number, code: number, message: string): FakeAnswer {
    return this.json(status, { code, message, details: [] });
  }

  protected override answer(request: FakeRequest): FakeAnswer | Promise<FakeAnswer> {
    if (request.headers["api-key"] !== this.apiKey) return this.json(401, { error: { code: "UNAUTHENTICATED", message: "Invalid API Key" }, status: 401 });
    if (!request.headers["x-pinecone-api-version"]) return this.error(400, 3, "Missing X-Pinecone-Api-Version header");
    if (this.throttled > 0) {
      this.throttled -= 1;
      return this.error(429, 8, "Request failed. You've reached the max request rate for this namespace.");
    }
    return super.answer(request);
  }

  private upsert(request: FakeRequest): FakeAnswer {
    if (request.raw.length > 2 * 1024 * 1024) return this.error(400, 3, `Request size ${request.raw.length} exceeds the maximum supported size of 2097152 bytes`);
    const body = parseObject(request.body) as { vectors?: StoredVector[]; namespace?: string } | null;
    const vectors = body?.vectors ?? [];
    if (vectors.length > 1000) return this.error(400, 3, `Upsert request contains ${vectors.length} vectors, the maximum is 1000`);
    for (const vector of vectors) {
      if (vector.values.length !== this.dimension) return this.error(400, 3, `Vector dimension ${vector.values.length} does not match the dimension of the index ${this.dimension}`);
      if (Object.values(vector.metadata ?? {}).some((value) => value === null)) return this.error(400, 3, "Metadata value must be a string, number, boolean or list of strings, got 'null'");
    }
    const stored = this.namespace(body?.namespace ?? "");
    for (const vector of vectors) stored.set(vector.id, { id: vector.id, values: vector.values, metadata: vector.metadata ?? {} });
    return this.json(200, { upsertedCount: vectors.length });
  }

  private query(request: FakeRequest): FakeAnswer {
    const body = parseObject(request.body) as { vector?: number[]; topK?: number; filter?: Record<string, unknown>; namespace?: string; includeMetadata?: boolean } | null;
    if (!body?.vector || !body.topK) return this.error(400, 3, "You must provide a vector or id and a topK");
    if (body.vector.length !== this.dimension) return this.error(400, 3, `Query vector dimension ${body.vector.length} does not match the dimension of the index ${this.dimension}`);
    const found = [...this.namespace(body.namespace ?? "").values()]
      .filter((vector) => !body.filter || matches(vector.metadata, body.filter))
      .map((vector) => ({ id: vector.id, score: cosine(vector.values, body.vector!), ...(body.includeMetadata && { metadata: vector.metadata }) }))
      .sort((a, b) => b.score - a.score)
      .slice(0, body.topK);
    return this.json(200, { matches: found, namespace: body.namespace ?? "", usage: { readUnits: 5 } });
  }

  private stats(): FakeAnswer {
    const namespaces = Object.fromEntries([...this.namespaces.entries()].map(([name, vectors]) => [name, { vectorCount: vectors.size }]));
    const total = [...this.namespaces.values()].reduce((sum, vectors) => sum + vectors.size, 0);
    return this.json(200, { namespaces, dimension: this.dimension, indexFullness: 0, totalVectorCount: total, metric: "cosine", vectorType: "dense" });
  }

  private delete(request: FakeRequest): FakeAnswer {
    const body = parseObject(request.body) as { ids?: string[]; deleteAll?: boolean; namespace?: string } | null;
    const stored = this.namespace(body?.namespace ?? "");
    if (body?.deleteAll) stored.clear();
    if ((body?.ids?.length ?? 0) > 1000) return this.error(400, 3, "Delete request contains more than 1000 ids");
    for (const id of body?.ids ?? []) stored.delete(id);
    return this.json(200, {});
  }
}
