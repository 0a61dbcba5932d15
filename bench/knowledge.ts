// `pnpm bench:knowledge`: retrieval quality of the built-in hashing embedding
// on a small labelled set (recall@5: the ticket that answers a question is
// among the five records the assistant would read), and the embedded index's
// query latency (p50/p99, topK 8, every source) at 10,000 and 100,000
// vectors of 768 dimensions in the worker-thread pool the API uses.
import { hashingEmbedding, normalise, EMBEDDING_DIMENSIONS } from "@mw/domains/ai";
import { SearchPool, SOURCE_BITS, ticketRecord, sourceMask, SOURCES } from "@mw/domains/knowledge";
import { KNOWLEDGE_QUESTIONS, KNOWLEDGE_TICKETS } from "../test/fixtures/knowledge-set.ts";

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}
const ms = (value: number) => value.toFixed(1);

// Retrieval quality: records built exactly as the embeddings cron builds them.
const pool = new SearchPool();
await pool.upsert(
  KNOWLEDGE_TICKETS.map((ticket) => {
    const record = ticketRecord({ id: ticket.id, number: String(ticket.id).padStart(6, "0"), subject: ticket.subject, status: "closed", client_name: null, ticket_summary: null, organisation: null }, [{ type: "M", poster_name: "Client", body: ticket.body, format: "text", posted_at: new Date() }]);
    return { id: record.id, sourceBit: SOURCE_BITS.ticket, vector: hashingEmbedding(record.text) };
  }),
);
let atOne = 0;
let atFive = 0;
let reciprocal = 0;
for (const { question, ticket } of KNOWLEDGE_QUESTIONS) {
  const hits = await pool.query(hashingEmbedding(question), 5, SOURCE_BITS.ticket);
  const rank = hits.findIndex((hit) => hit.id === `ticket_${ticket}`);
  if (rank === 0) atOne += 1;
  if (rank >= 0) {
    atFive += 1;
    reciprocal += 1 / (rank + 1);
  }
}
const n = KNOWLEDGE_QUESTIONS.length;
console.log(`retrieval, local hashing embedding (${EMBEDDING_DIMENSIONS} dims), ${KNOWLEDGE_TICKETS.length} tickets, ${n} labelled questions:`);
console.log(`  recall@5 ${atFive}/${n} (${Math.round((100 * atFive) / n)} %), recall@1 ${atOne}/${n} (${Math.round((100 * atOne) / n)} %), MRR@5 ${(reciprocal / n).toFixed(2)}`);
await pool.close();

/** A unit vector of random direction. */
function randomVector(): Float32Array {
  const vector = new Float32Array(EMBEDDING_DIMENSIONS);
  for (let i = 0; i < vector.length; i += 1) vector[i] = Math.random() - 0.5;
  return normalise(vector);
}

// Latency: vectors added in chunks (as the index loads pages from the table), then sequential queries.
const mask = sourceMask(SOURCES);
let loaded = 0;
const latencyPool = new SearchPool();
for (const target of [10_000, 100_000]) {
  const loadStarted = performance.now();
  while (loaded < target) {
    const chunk = Math.min(5_000, target - loaded);
    await latencyPool.upsert(Array.from({ length: chunk }, (_, i) => ({ id: `v${loaded + i}`, sourceBit: SOURCE_BITS[SOURCES[(loaded + i) % SOURCES.length]!], vector: randomVector() })));
    loaded += chunk;
  }
  const loadSeconds = (performance.now() - loadStarted) / 1000;
  for (let i = 0; i < 10; i += 1) await latencyPool.query(randomVector(), 8, mask);
  const queries = target >= 100_000 ? 200 : 500;
  const times: number[] = [];
  for (let i = 0; i < queries; i += 1) {
    const vector = randomVector();
    const started = performance.now();
    await latencyPool.query(vector, 8, mask);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  console.log(
    `embedded index, ${latencyPool.size.toLocaleString("en")} vectors in ${latencyPool.threads} threads (loaded in ${loadSeconds.toFixed(1)} s): ${queries} queries topK 8, p50 ${ms(percentile(times, 50))} ms, p99 ${ms(percentile(times, 99))} ms, max ${ms(times.at(-1)!)} ms; process RSS ${Math.round(process.memoryUsage().rss / 1e6)} MB`,
  );
}
await latencyPool.close();
