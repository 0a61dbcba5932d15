import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Knowledge, documentsRefreshJob, embeddingsJob, ticketVectorId } from "@mw/domains/knowledge";
import { OPTIONS_CACHE_MS } from "@mw/domains/options";
import type { Queue } from "bullmq";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { FakeGemini } from "../fakes/gemini.ts";
import { FakePinecone } from "../fakes/pinecone.ts";
import { startApi, userWith, type TestApi } from "../support/api.ts";
import { startInProcessWorker, type InProcessWorker } from "../support/in-process-worker.ts";
import { runCli } from "../support/processes.ts";
import { postSse } from "../support/sse.ts";
import { staffMember } from "../support/timetracking.ts";
import { settled, until } from "../support/wait.ts";
import { ajax, mirrorTicket, pauseKnowledgeQueue } from "./support.ts";

const PROVIDER_KEY = "AIzaFAKE-knowledge-jobs-5e2b";
const PINECONE_KEY = "pcsk_fake_jobs_key_81c";
const MODEL = "gemini-embedding-001";
let gemini: FakeGemini;
let pinecone: FakePinecone;
let api: TestApi;
let worker: InProcessWorker;
let queue: Queue;
let admin: string;
let staff: { staffId: number; authorization: string };
let dir: string;

type Json = ReturnType<typeof JSON.parse>;

async function action(name: string, fields: Record<string, unknown> = {}): Promise<{ status: number; body: { success: boolean; data: Json } }> {
  const res = await fetch(`${api.url}/admin-ajax`, { method: "POST", headers: { authorization: admin, "content-type": "application/json" }, body: JSON.stringify({ action: name, ...fields }) });
  return { status: res.status, body: (await res.json()) as { success: boolean; data: Json } };
}

/** Follows an action's job with get_job until it has finished, as an admin page does. */
async function jobDone(jobId: string): Promise<Json> {
  let last: Json;
  await until(
    async () => {
      last = (await action("get_job", { job_id: jobId })).body.data;
      return last.state === "completed" || last.state === "failed";
    },
    () => `${jobId} to finish: ${JSON.stringify(last)}\n${worker.output().slice(-2000)}`,
    30_000,
  );
  expect(last.state, JSON.stringify(last)).toBe("completed");
  return last;
}

const runCron = async () => settled(queue, await api.ctx.queues.add(embeddingsJob, {}, { jobId: `embeddings-test-${Date.now()}` }), worker, 30_000);
/** The texts of the embedding requests made since `from`. */
const embeddedTexts = (from: number) =>
  gemini.calls
    .slice(from)
    .flatMap((call) => ((call.body as { requests?: { content: { parts: { text: string }[] }; taskType?: string; outputDimensionality?: number }[] }).requests ?? []).map((request) => ({ text: request.content.parts[0]!.text, taskType: request.taskType, dimensions: request.outputDimensionality })));

beforeAll(async () => {
  [gemini, pinecone] = await Promise.all([new FakeGemini(PROVIDER_KEY).start(), new FakePinecone(PINECONE_KEY).start()]);
  dir = await mkdtemp(path.join(tmpdir(), "knowledge-"));
  const env = { AI_BASE_URL: gemini.url, AI_API_KEY: PROVIDER_KEY, AI_RETRY_BASE_MS: "10" };
  api = await startApi(env);
  await api.ctx.options.set({ ai_api_key: null, ai_vector_host: null, ai_vector_api_key: null, ai_embedding_model: null });
  queue = api.ctx.queues.get("knowledge");
  // Jobs other files' workers still run would embed into this file's ledger: let them finish, then start empty.
  await pauseKnowledgeQueue(api);
  await queue.obliterate({ force: true });
  await queue.resume();
  await api.ctx.redis.del(`${api.ctx.config.QUEUE_PREFIX}:knowledge:tickets-embedded-until`);
  worker = await startInProcessWorker({ ...env, WORKER_QUEUES: "knowledge" });
  // Its schedules are in place once the first reconcile ends, after "workers started": the first test reads the embeddings one.
  await worker.waitFor(/"message":"schedules reconciled".*"why":"worker started"/, 90_000);
  // A scheduler's first run may start at once: let it end, or it embeds this file's new tickets beside the runs the tests start.
  await until(async () => {
    const counts = await queue.getJobCounts("active", "waiting", "prioritized");
    return counts.active! + counts.waiting! + counts.prioritized! === 0;
  }, () => "the knowledge queue to be idle after the worker started");
  admin = await userWith(api, "manage_options");
  staff = await staffMember(api);
}, 150_000);
beforeEach(() => {
  gemini.reset();
  gemini.respond = (call) =>
    JSON.stringify(call.body.systemInstruction ?? "").includes("short title") ? JSON.stringify({ title: "Checkout refund question." }) : `Rewritten: ${call.body.contents?.[0]?.parts?.[0]?.text ?? ""}`;
});
afterAll(async () => {
  await api.ctx.options.set({ ai_vector_host: null, ai_vector_api_key: null });
  await worker.stop();
  await api.close();
  await Promise.all([gemini.stop(), pinecone.stop()]);
  await rm(dir, { recursive: true, force: true });
});

describe("the embeddings cron (spec 2, 4.6 and 8)", () => {
  it("is scheduled every 10 minutes, embeds every ticket the first time and then only new or changed ones", async () => {
    expect(await queue.getJobScheduler("embeddings")).toMatchObject({ every: 600_000 });
    const first = await mirrorTicket(api, "Invoice totals wrong after tax change", "Invoices show the old VAT rate.");
    const second = await mirrorTicket(api, "Login page slow", "The staff login page takes 20 seconds.");
    const before = gemini.calls.length;
    const run = await runCron();
    // Other files' tickets on this database may have their vectors already (unchanged): these two are new.
    expect(run.returnvalue.embedded).toBeGreaterThanOrEqual(2);
    expect(run.progress).toMatchObject({ done: expect.any(Number), total: expect.any(Number) });
    const texts = embeddedTexts(before);
    expect(texts.find((request) => request.text.includes("Invoices show the old VAT rate."))).toMatchObject({ taskType: "RETRIEVAL_DOCUMENT", dimensions: 768 });
    expect(texts.find((request) => request.text.includes("The staff login page takes 20 seconds."))).toBeDefined();
    expect(await api.ctx.prisma.knowledgeVector.findUniqueOrThrow({ where: { id: ticketVectorId(first.id) } })).toMatchObject({ model: MODEL, dimension: 768, source: "ticket" });

    await api.ctx.prisma.ticket.update({ where: { id: second.id }, data: { subject: "Login page very slow since Monday" } });
    const again = gemini.calls.length;
    const next = await runCron();
    expect(next.returnvalue).toMatchObject({ embedded: 1 });
    expect(embeddedTexts(again).map((request) => request.text)).toEqual([expect.stringContaining("Login page very slow since Monday")]);
  });

  it("starts one full re-embed job when vectors of another model or dimension are found", async () => {
    const ticket = await mirrorTicket(api, "Stock sync stopped", "Stock levels stopped syncing from the ERP.");
    await runCron();
    // As if the embedding model had been another one when this vector was made.
    await api.ctx.prisma.knowledgeVector.update({ where: { id: ticketVectorId(ticket.id) }, data: { model: "gemini-embedding-legacy", dimension: 1536 } });
    const status = await ajax(api, "GET", "status", staff.authorization);
    expect(status.body.data.stale_vectors).toBeGreaterThanOrEqual(1);
    await runCron();
    const reembed = (await queue.getJobs(["completed", "active", "waiting", "failed"])).find((job) => job.id?.startsWith(`reembed-all.${MODEL}.`));
    expect(reembed).toBeDefined();
    const done = await settled(queue, reembed!, worker, 30_000);
    expect(done.returnvalue).toMatchObject({ embedded: expect.any(Number) });
    expect(await api.ctx.prisma.knowledgeVector.findUniqueOrThrow({ where: { id: ticketVectorId(ticket.id) } })).toMatchObject({ model: MODEL, dimension: 768 });
    expect((await ajax(api, "GET", "status", staff.authorization)).body.data.stale_vectors).toBe(0);
  });
});

describe("staff AJAX reembed, status and auto-title (spec 2, 4.6)", () => {
  it("re-embeds one ticket through a job even when its content did not change", async () => {
    const ticket = await mirrorTicket(api, "Coupon codes rejected", "Every coupon code is rejected at checkout.");
    await runCron();
    const embeddedAt = (await api.ctx.prisma.knowledgeVector.findUniqueOrThrow({ where: { id: ticketVectorId(ticket.id) } })).embedded_at;
    const queued = await ajax(api, "POST", "reembed", staff.authorization, { ticket_number: ticket.number });
    expect(queued).toMatchObject({ status: 200, body: { success: true, data: { job_id: expect.stringMatching(/^knowledge:reembed-ticket\./) } } });
    const job = await jobDone(queued.body.data.job_id as string);
    expect(job.result).toMatchObject({ embedded: 1, unchanged: 0 });
    expect((await api.ctx.prisma.knowledgeVector.findUniqueOrThrow({ where: { id: ticketVectorId(ticket.id) } })).embedded_at.getTime()).toBeGreaterThan(embeddedAt.getTime());
    expect(await ajax(api, "POST", "reembed", staff.authorization, { ticket_number: "999999999" })).toEqual({ status: 404, body: { success: false, data: "Ticket 999999999 not found." } });
  });

  it("answers queued and skipped: a second reembed while the first waits is skipped, naming that job, and the first still runs", async () => {
    const ticket = await mirrorTicket(api, "Invoices missing VAT", "The invoice PDF shows no VAT line.");
    const resume = await pauseKnowledgeQueue(api);
    let first: { status: number; body: { success: boolean; data: Json } };
    let second: typeof first;
    try {
      first = await ajax(api, "POST", "reembed", staff.authorization, { ticket_number: ticket.number });
      second = await ajax(api, "POST", "reembed", staff.authorization, { ticket_number: ticket.number });
    } finally {
      await resume();
    }
    const jobId = first.body.data.job_id as string;
    expect(first).toEqual({ status: 200, body: { success: true, data: { job_id: jobId, queued: [{ ticket_number: ticket.number, job_id: jobId }], skipped: [] } } });
    expect(second).toEqual({
      status: 200,
      body: { success: true, data: { job_id: jobId, queued: [], skipped: [{ ticket_number: ticket.number, reason: `already in progress: job ${jobId} is waiting` }] } },
    });
    expect((await jobDone(jobId)).result).toMatchObject({ embedded: 1 });
    // Once it has ended, the ticket can be re-embedded again.
    const third = await ajax(api, "POST", "reembed", staff.authorization, { ticket_number: ticket.number });
    expect(third.body.data).toMatchObject({ skipped: [], queued: [{ ticket_number: ticket.number }] });
    expect(third.body.data.job_id).not.toBe(jobId);
    await jobDone(third.body.data.job_id as string);
  });

  it("shows the AI service version, provider, index, records per source and the last embedding run", async () => {
    await runCron();
    const status = await ajax(api, "GET", "status", staff.authorization);
    expect(status.body).toMatchObject({
      success: true,
      data: {
        version: "1.0.0",
        provider: { engine: "model", assistant_model: "gemini-2.5-flash", embedding_model: MODEL, dimension: 768 },
        index: { kind: "embedded", namespace: "", host: null },
        enabled_sources: ["ticket", "site", "wiki", "docs", "brand"],
        last_embedding_run: { kind: "embeddings", embedded: expect.any(Number), started_at: expect.any(String) },
      },
    });
    expect(status.body.data.counts.ticket).toBeGreaterThan(0);
    const openapi = (await (await fetch(`${api.url}/openapi.json`)).json()) as Json;
    const schema = openapi.paths["/scp/ajax.php/ai-assistant/status"].get.responses["200"].content["application/json"];
    expect(schema.schema.properties.data.properties.version).toMatchObject({ enum: ["1.0.0"] });
    expect(schema.example.data.version).toBe("1.0.0");
  });

  it("titles a conversation after its first message, once", async () => {
    gemini.script({ pieces: ["Refunds go back to the card."] });
    const answer = await postSse(`${api.url}/scp/ajax.php/ai-assistant/chat`, { authorization: staff.authorization }, { message: "How do refunds for a double checkout charge work?" });
    const conversationId = answer.events.at(-1)!.conversation_id as number;
    await until(async () => Boolean((await api.ctx.prisma.assistantConversation.findUniqueOrThrow({ where: { id: conversationId } })).title), () => `conversation ${conversationId} to get a title\n${worker.output().slice(-2000)}`, 20_000);
    expect((await api.ctx.prisma.assistantConversation.findUniqueOrThrow({ where: { id: conversationId } })).title).toBe("Checkout refund question");
    const titleCall = gemini.calls.find((call) => JSON.stringify(call.body.systemInstruction ?? "").includes("short title"))!;
    expect(titleCall.body.contents?.[0]?.parts?.[0]?.text).toBe("How do refunds for a double checkout charge work?");

    gemini.script({ pieces: ["Yes."] });
    await postSse(`${api.url}/scp/ajax.php/ai-assistant/chat`, { authorization: staff.authorization }, { message: "Anything else?", conversation_id: conversationId });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(gemini.calls.filter((call) => JSON.stringify(call.body.systemInstruction ?? "").includes("short title"))).toHaveLength(1);
    expect((await ajax(api, "GET", "conversations", staff.authorization)).body.data.conversations[0]).toMatchObject({ id: conversationId, title: "Checkout refund question" });
  });
});

describe("admin AJAX vector actions and knowledge:add (spec 2, 4.4)", () => {
  it("syncs every source as a job, one site, documents from the CLI, and reports stats and the connection", async () => {
    const site = await api.ctx.prisma.managedSite.create({ data: { name: "Harbour Tiles", url: `https://harbour-${Date.now()}.example`, client: "Harbour", notes: "Tile shop on WooCommerce" } });
    const file = path.join(dir, "returns-policy.md");
    await writeFile(file, "# Returns policy\n\nClients may return tiles within 30 days.\n");
    const added = await runCli("knowledge:add", "--source", "docs", file);
    expect(added.code, added.stderr).toBe(0);
    const printed = JSON.parse(added.stdout.trim().split("\n").at(-1)!) as Json;
    expect(printed).toMatchObject({ source: "docs", title: "Returns policy", vector_id: expect.stringMatching(/returns-policy$/), job_id: expect.stringMatching(/^knowledge:embed-document\./) });
    await jobDone(printed.job_id as string);
    expect(await api.ctx.prisma.knowledgeVector.findUnique({ where: { id: printed.vector_id as string } })).toMatchObject({ source: "docs", title: "Returns policy" });

    const sync = await action("vector_sync_all");
    expect(sync).toMatchObject({ status: 200, body: { success: true, data: { job_id: expect.stringMatching(/^knowledge:sync-all\./), queued: true } } });
    const job = await jobDone(sync.body.data.job_id as string);
    expect(job.result).toMatchObject({ embedded: expect.any(Number), unchanged: expect.any(Number), removed: expect.any(Number) });
    expect(await api.ctx.prisma.knowledgeVector.findUnique({ where: { id: `site-${site.id}` } })).toMatchObject({ source: "site", ref: site.url });

    await api.ctx.prisma.managedSite.update({ where: { id: site.id }, data: { notes: "Tile shop, moved to Shopify" } });
    const one = await action("vector_sync_site", { site_id: String(site.id) });
    expect((await jobDone(one.body.data.job_id as string)).result).toMatchObject({ embedded: 1 });
    expect(await action("vector_sync_site", { site_id: 999999999 })).toMatchObject({ status: 404, body: { success: false, data: "Site 999999999 not found." } });

    const stats = await action("vector_get_stats");
    expect(stats.body.data).toMatchObject({ index: "embedded", namespace: "", dimension: 768, embedding_model: MODEL });
    expect(stats.body.data.counts.site).toBeGreaterThanOrEqual(1);
    expect(stats.body.data.counts.docs).toBeGreaterThanOrEqual(1);
    expect((await action("vector_test_connection")).body.data).toMatchObject({ connected: true, index: "embedded", dimension_ok: true });
  });

  it("uses Pinecone when its host and key are set: connection test, sync into the index, stats from describe_index_stats", async () => {
    await api.ctx.options.set({ ai_vector_host: pinecone.url, ai_vector_api_key: "wrong-key" });
    expect(await action("vector_test_connection")).toMatchObject({ status: 502, body: { success: false, data: expect.stringMatching(/^Vector index connection failed: Pinecone answered HTTP 401/) } });
    await api.ctx.options.set({ ai_vector_api_key: PINECONE_KEY });
    expect((await action("vector_test_connection")).body.data).toMatchObject({ connected: true, index: "pinecone", host: pinecone.url, dimension: 768, dimension_ok: true });

    await mirrorTicket(api, "Pinecone bound ticket", "This one goes to Pinecone.");
    // The worker sees option changes within twice its cache time.
    await new Promise((resolve) => setTimeout(resolve, 2 * OPTIONS_CACHE_MS + 100));
    // Records held locally are not in Pinecone: the sync moves every one there.
    await jobDone((await action("vector_sync_all")).body.data.job_id as string);
    const inPinecone = pinecone.namespace("").size;
    expect(inPinecone).toBe(await api.ctx.prisma.knowledgeVector.count({ where: { model: MODEL } }));
    expect(await api.ctx.prisma.knowledgeVector.count({ where: { vector: { not: null } } })).toBe(0);
    expect((await action("vector_get_stats")).body.data).toMatchObject({ index: "pinecone", namespace: "", vector_count: inPinecone, dimension: 768 });

    const knowledge = new Knowledge({ prisma: api.ctx.prisma, config: api.ctx.config, options: api.ctx.options, ai: api.ctx.ai, logger: api.ctx.logger });
    const found = await knowledge.search("This one goes to Pinecone.", ["ticket"], 3);
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((match) => match.source === "ticket")).toBe(true);
    await api.ctx.options.set({ ai_vector_host: null, ai_vector_api_key: null });
  });
});

describe("the daily document refresh (issue 32)", () => {
  it("reads each added document again and embeds again only the ones whose text changed", async () => {
    expect(await queue.getJobScheduler("documents-refresh")).toMatchObject({ pattern: api.ctx.config.KNOWLEDGE_REFRESH_SCHEDULE, tz: "UTC" });
    const file = path.join(dir, "shipping-times.md");
    await writeFile(file, "# Shipping times\n\nTiles ship within 5 days.\n");
    const added = await runCli("knowledge:add", "--source", "docs", file);
    expect(added.code, added.stderr).toBe(0);
    const printed = JSON.parse(added.stdout.trim().split("\n").at(-1)!) as Json;
    await jobDone(printed.job_id as string);
    const vector = () => api.ctx.prisma.knowledgeVector.findUniqueOrThrow({ where: { id: printed.vector_id as string } });
    const firstHash = (await vector()).content_hash;
    const refresh = async () => (await settled(queue, await api.ctx.queues.add(documentsRefreshJob, {}, { jobId: `documents-refresh-test-${Date.now()}` }), worker, 30_000)).returnvalue as { changed: number[]; failed: unknown[] };

    const unchanged = await refresh();
    expect(unchanged.changed).not.toContain(printed.document_id);

    await writeFile(file, "# Shipping times\n\nTiles ship within 2 days since November.\n");
    const before = gemini.calls.length;
    expect((await refresh()).changed).toContain(printed.document_id);
    expect((await api.ctx.prisma.knowledgeDocument.findUniqueOrThrow({ where: { id: printed.document_id as number } })).content).toContain("within 2 days");
    await until(async () => (await vector()).content_hash !== firstHash, () => `the changed document to be embedded again; worker output:\n${worker.output().slice(-2000)}`, 30_000);
    expect(embeddedTexts(before).map((request) => request.text)).toEqual([expect.stringContaining("within 2 days since November")]);
  }, 120_000);
});
