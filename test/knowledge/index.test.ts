import { AppError } from "@mw/platform";
import { EMBEDDING_DIMENSIONS, LOCAL_EMBEDDING_MODEL } from "@mw/domains/ai";
import { importDocument, Knowledge, loadSiteRecords, loadTicketRecords, saveDocument, loadDocumentRecords, ticketVectorId } from "@mw/domains/knowledge";
import { PineconeClient, upsertBatches } from "@mw/providers/pinecone";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakePinecone } from "../fakes/pinecone.ts";
import { startApi, userWith, type TestApi } from "../support/api.ts";
import { newTicketId } from "../support/tickets.ts";
import { pauseKnowledgeQueue } from "./support.ts";

const PINECONE_KEY = "pcsk_fake_index_key_3f1";
let api: TestApi;
let pinecone: FakePinecone;
let resumeQueue: () => Promise<void>;

async function ticket(subject: string, body: string): Promise<number> {
  const id = newTicketId();
  await api.ctx.prisma.ticket.create({
    data: { id, number: String(id).padStart(6, "0"), subject, status: "open", opened_at: new Date(), entries: { create: { id, type: "M", poster_name: "Ann Lee", poster_type: "User", body, format: "text", posted_at: new Date() } } },
  });
  return id;
}

function knowledge(config: Partial<{ PINECONE_HOST: string; PINECONE_API_KEY: string }> = {}) {
  return new Knowledge({ prisma: api.ctx.prisma, config: { ...api.ctx.config, ...config }, options: api.ctx.options, ai: api.ctx.ai, logger: api.ctx.logger });
}

beforeAll(async () => {
  pinecone = await new FakePinecone(PINECONE_KEY).start();
  api = await startApi({ AI_API_KEY: "" });
  await api.ctx.options.set({ ai_api_key: null, ai_vector_host: null, ai_vector_api_key: null });
  resumeQueue = await pauseKnowledgeQueue(api);
});
afterAll(async () => {
  await resumeQueue();
  await api.close();
  await pinecone.stop();
});

describe("the embedded index (design 10.5, 10.8)", () => {
  it("embeds new or changed tickets only, one 768-long vector per ticket, and finds the ticket a question is about", async () => {
    const index = knowledge();
    const refund = await ticket("Customer charged twice for one order", "The card was debited two times for order 5521; please refund the duplicate payment.");
    const ssl = await ticket("SSL certificate expired on the shop", "Browsers warn that the certificate of shop.example expired yesterday.");
    const records = () => loadTicketRecords(api.ctx.prisma, [refund, ssl]);
    expect(await index.sync(await records())).toEqual({ embedded: 2, unchanged: 0 });
    expect(await index.sync(await records())).toEqual({ embedded: 0, unchanged: 2 });
    const row = await api.ctx.prisma.knowledgeVector.findUniqueOrThrow({ where: { id: ticketVectorId(refund) } });
    expect(row).toMatchObject({ source: "ticket", model: LOCAL_EMBEDDING_MODEL, dimension: EMBEDDING_DIMENSIONS });
    expect(row.vector!.length).toBe(EMBEDDING_DIMENSIONS * 4);

    await api.ctx.prisma.ticket.update({ where: { id: ssl }, data: { subject: "SSL certificate expired on the shop and the blog" } });
    expect(await index.sync(await records())).toEqual({ embedded: 1, unchanged: 1 });

    // Other files' tickets share this database (a refund question of their own may rank first): of this
    // test's two tickets, the one the question is about comes first.
    const ours = new Set([ticketVectorId(refund), ticketVectorId(ssl)]);
    const first = async (question: string) => (await index.search(question, ["ticket"], 100)).find((hit) => ours.has(hit.id));
    expect(await first("refund a double charge on a card")).toMatchObject({ id: ticketVectorId(refund), source: "ticket", title: expect.stringContaining("charged twice") });
    expect((await first("the certificate has expired"))!.id).toBe(ticketVectorId(ssl));
    await index.close();
  });

  it("filters on sources, reads only the current model's vectors, and forgets removed records", async () => {
    const index = knowledge();
    const site = await api.ctx.prisma.managedSite.create({ data: { name: "Bakery Lumen", url: `https://lumen-${Date.now()}.example`, client: "Lumen", hosting: "Kinsta", notes: "Sourdough bakery shop with click and collect" } });
    const doc = await saveDocument(api.ctx.prisma, { source: "wiki", location: `wiki/sourdough-${Date.now()}.md`, title: "Sourdough ordering", content: "How the bakery's sourdough click and collect ordering works." });
    const bread = await ticket("Sourdough bakery click and collect broken", "Click and collect for sourdough bread fails at checkout.");
    await index.sync([...(await loadSiteRecords(api.ctx.prisma, [site.id])), ...(await loadDocumentRecords(api.ctx.prisma, [doc.id])), ...(await loadTicketRecords(api.ctx.prisma, [bread]))]);
    expect(doc.vector_id).toBe(`docs-${doc.id}`);

    const question = "sourdough bakery click and collect";
    expect(new Set((await index.search(question, ["ticket", "site", "wiki"], 3)).map((match) => match.id))).toEqual(new Set([ticketVectorId(bread), `site-${site.id}`, `docs-${doc.id}`]));
    // Sites other test files left in this database may follow this one, never a record of another source.
    const sites = await index.search(question, ["site"], 5);
    expect(sites.every((match) => match.source === "site")).toBe(true);
    expect(sites[0]!.id).toBe(`site-${site.id}`);
    expect((await index.search(question, ["ticket"], 5)).every((match) => match.source === "ticket")).toBe(true);

    // A vector of another model (the option changed) is not read, and counts as stale until re-embedded.
    const staleBefore = await index.staleCount();
    await api.ctx.prisma.knowledgeVector.update({ where: { id: `site-${site.id}` }, data: { model: "gemini-embedding-001" } });
    expect(await index.staleCount()).toBe(staleBefore + 1);
    expect((await index.search(question, ["site"], 5)).map((match) => match.id)).not.toContain(`site-${site.id}`);
    expect(await index.sync(await loadSiteRecords(api.ctx.prisma, [site.id]))).toEqual({ embedded: 1, unchanged: 0 });
    expect((await index.search(question, ["site"], 5)).map((match) => match.id)).toContain(`site-${site.id}`);

    await api.ctx.prisma.managedSite.delete({ where: { id: site.id } });
    const all = await loadSiteRecords(api.ctx.prisma);
    expect(await index.prune("site", new Set(all.map((record) => record.id)))).toBe(1);
    expect((await index.search(question, ["site"], 5)).map((match) => match.id)).not.toContain(`site-${site.id}`);
    await index.close();
  });
});

describe("the egress guard on the vector host (issue 35, finding 2)", () => {
  it("refuses an ai_vector_host on a local address without sending it the key, while PINECONE_HOST from the environment stays trusted", async () => {
    const guarded = await startApi({ AI_API_KEY: "", ALLOW_PRIVATE_URLS: "false" });
    try {
      const admin = await userWith(guarded, "manage_options");
      await guarded.ctx.options.set({ ai_vector_host: pinecone.url, ai_vector_api_key: PINECONE_KEY });
      pinecone.requests.length = 0;
      const res = await fetch(`${guarded.url}/admin-ajax`, { method: "POST", headers: { authorization: admin, "content-type": "application/json" }, body: JSON.stringify({ action: "vector_test_connection" }) });
      expect({ status: res.status, body: await res.json() }).toEqual({
        status: 502,
        body: { success: false, data: "Vector index connection failed: Pinecone request failed: the host 127.0.0.1 was refused: it is a loopback address (addresses inside the network are called only with ALLOW_PRIVATE_URLS=true)" },
      });
      expect(pinecone.requests).toEqual([]);

      const fromEnvironment = new Knowledge({ prisma: guarded.ctx.prisma, config: { ...guarded.ctx.config, PINECONE_HOST: pinecone.url, PINECONE_API_KEY: PINECONE_KEY }, options: guarded.ctx.options, ai: guarded.ctx.ai, logger: guarded.ctx.logger });
      expect(await (await fromEnvironment.index()).stats(LOCAL_EMBEDDING_MODEL)).toMatchObject({ dimension: 768 });
      expect(pinecone.requests.map((request) => request.path)).toEqual(["/describe_index_stats"]);
    } finally {
      await guarded.ctx.options.set({ ai_vector_host: null, ai_vector_api_key: null });
      await guarded.close();
    }
  });
});

describe("the environment's Pinecone key", () => {
  it("goes only to PINECONE_HOST: a host entered as an option is sent the option's key", async () => {
    await api.ctx.options.set({ ai_vector_host: pinecone.url, ai_vector_api_key: null });
    try {
      pinecone.requests.length = 0;
      const index = knowledge({ PINECONE_API_KEY: PINECONE_KEY });
      await expect((await index.index()).stats(LOCAL_EMBEDDING_MODEL)).rejects.toThrow(/401|Invalid API Key/);
      expect(pinecone.requests.map((request) => request.path)).toEqual(["/describe_index_stats"]);

      await api.ctx.options.set({ ai_vector_api_key: PINECONE_KEY });
      expect(await (await index.index()).stats(LOCAL_EMBEDDING_MODEL)).toMatchObject({ dimension: 768 });
      await index.close();
    } finally {
      await api.ctx.options.set({ ai_vector_host: null, ai_vector_api_key: null });
    }
  });
});

describe("documents read from a URL (knowledge:add)", () => {
  it("refuses a URL on a local address with the egress guard on, and reads it with the guard lifted", async () => {
    pinecone.requests.length = 0;
    const location = `${pinecone.url}/handbook.md`;
    const refused = await importDocument({ prisma: api.ctx.prisma, config: { ...api.ctx.config, ALLOW_PRIVATE_URLS: false } }, { source: "docs", location }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: "egress_refused", message: "Document URL request failed: the host 127.0.0.1 was refused: it is a loopback address (addresses inside the network are called only with ALLOW_PRIVATE_URLS=true)" });
    expect(pinecone.requests).toEqual([]);
    await importDocument({ prisma: api.ctx.prisma, config: { ...api.ctx.config, ALLOW_PRIVATE_URLS: true } }, { source: "docs", location }).catch(() => undefined);
    expect(pinecone.requests.map((request) => request.path)).toEqual(["/handbook.md"]);
  });
});

describe("Pinecone (contract sheet, section 3)", () => {
  it("upserts with model and source metadata, queries once with the source and model filter, and reports stats", async () => {
    const index = knowledge({ PINECONE_HOST: pinecone.url, PINECONE_API_KEY: PINECONE_KEY });
    const outage = await ticket("Warehouse scanner offline", "The barcode scanners in the warehouse lost their connection.");
    expect(await index.sync(await loadTicketRecords(api.ctx.prisma, [outage]))).toEqual({ embedded: 1, unchanged: 0 });
    const stored = pinecone.namespace("").get(ticketVectorId(outage))!;
    expect(stored.values).toHaveLength(768);
    expect(stored.metadata).toMatchObject({ source: "ticket", model: LOCAL_EMBEDDING_MODEL, ref: String(outage).padStart(6, "0") });
    expect((await api.ctx.prisma.knowledgeVector.findUniqueOrThrow({ where: { id: ticketVectorId(outage) } })).vector).toBeNull();
    const upsert = pinecone.requests.find((request) => request.path === "/vectors/upsert")!;
    expect(upsert.headers["x-pinecone-api-version"]).toBe("2025-04");

    const found = await index.search("warehouse barcode scanner offline", ["ticket", "docs"], 3);
    expect(found[0]).toMatchObject({ id: ticketVectorId(outage), source: "ticket" });
    const query = JSON.parse(pinecone.requests.filter((request) => request.path === "/query").at(-1)!.body) as Record<string, unknown>;
    expect(query).toMatchObject({ topK: 3, namespace: "", includeMetadata: true, filter: { $and: [{ source: { $in: ["ticket", "docs"] } }, { model: { $eq: LOCAL_EMBEDDING_MODEL } }] } });
    expect(await (await index.index()).stats(LOCAL_EMBEDDING_MODEL)).toEqual({ vector_count: pinecone.namespace("").size, namespace: "", dimension: 768 });
  });

  it("surfaces 429 as rate_limited and a dimension mismatch with Pinecone's message", async () => {
    const client = new PineconeClient({ host: pinecone.url, apiKey: PINECONE_KEY, timeoutMs: 2000 });
    pinecone.throttle(1);
    const throttled = await client.describeIndexStats().catch((error: unknown) => error);
    expect(throttled).toBeInstanceOf(AppError);
    expect((throttled as AppError).upstream).toMatchObject({ status: 429, kind: "rate_limited" });
    expect((throttled as AppError).permanent).toBe(false);

    const wide = await new FakePinecone(PINECONE_KEY, 1536).start();
    try {
      const index = knowledge({ PINECONE_HOST: wide.url, PINECONE_API_KEY: PINECONE_KEY });
      const id = await ticket("Dimension check", "Any text.");
      const refused = await index.sync(await loadTicketRecords(api.ctx.prisma, [id])).catch((error: unknown) => error);
      expect((refused as AppError).message).toBe("Pinecone answered HTTP 400: Vector dimension 768 does not match the dimension of the index 1536");
      expect((refused as AppError).permanent).toBe(true);
      // Nothing is recorded as embedded when the index refused it.
      expect(await api.ctx.prisma.knowledgeVector.findUnique({ where: { id: ticketVectorId(id) } })).toBeNull();
    } finally {
      await wide.stop();
    }
    const wrongKey = new PineconeClient({ host: pinecone.url, apiKey: "wrong", timeoutMs: 2000 });
    expect(((await wrongKey.describeIndexStats().catch((error: unknown) => error)) as AppError).upstream).toMatchObject({ status: 401, kind: "unauthorized" });
  });

  it("splits upserts at 1000 records and at 2 MB", () => {
    const small = Array.from({ length: 2500 }, (_, i) => ({ id: `v${i}`, values: [0.1, 0.2] }));
    expect(upsertBatches(small).map((batch) => batch.length)).toEqual([1000, 1000, 500]);
    const wide = Array.from({ length: 300 }, (_, i) => ({ id: `w${i}`, values: Array.from({ length: 768 }, () => Math.random()) }));
    const batches = upsertBatches(wide);
    expect(batches.length).toBeGreaterThan(1);
    for (const batch of batches) expect(Buffer.byteLength(JSON.stringify({ vectors: batch, namespace: "" }))).toBeLessThanOrEqual(2 * 1024 * 1024);
    expect(batches.flat()).toHaveLength(300);
  });
});
