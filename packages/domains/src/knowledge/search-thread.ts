/**
 * One shard of the embedded index, in a worker thread (design 10.8: the
 * cosine search runs off the event loop). It holds its vectors in one
 * growing Float32Array, L2-normalised, so a score is a dot product. Only
 * node built-ins here: the thread runs this file alone.
 */
import { parentPort } from "node:worker_threads";

export type ShardRequest =
  | { seq: number; op: "upsert"; ids: string[]; sources: Uint8Array; vectors: Float32Array }
  | { seq: number; op: "remove"; ids: string[] }
  | { seq: number; op: "clear" }
  | { seq: number; op: "query"; vector: Float32Array; topK: number; sourceMask: number };

export type ShardReply = { seq: number; size: number; hits?: { id: string; score: number }[] };

const port = parentPort;
if (!port) throw new Error("search-thread runs only as a worker thread");

let dimension = 0;
let matrix = new Float32Array(0);
let sources = new Uint8Array(0);
const ids: string[] = [];
const rows = new Map<string, number>();

function reserve(rowsWanted: number): void {
  const capacity = dimension ? matrix.length / dimension : 0;
  if (rowsWanted <= capacity) return;
  const next = Math.max(rowsWanted, Math.ceil(capacity * 1.5), 1024);
  const grown = new Float32Array(next * dimension);
  grown.set(matrix.subarray(0, ids.length * dimension));
  matrix = grown;
  const grownSources = new Uint8Array(next);
  grownSources.set(sources.subarray(0, ids.length));
  sources = grownSources;
}

function upsert(request: Extract<ShardRequest, { op: "upsert" }>): void {
  if (!request.ids.length) return;
  dimension ||= request.vectors.length / request.ids.length;
  reserve(ids.length + request.ids.length);
  for (const [i, id] of request.ids.entries()) {
    let row = rows.get(id);
    if (row === undefined) {
      row = ids.length;
      ids.push(id);
      rows.set(id, row);
    }
    matrix.set(request.vectors.subarray(i * dimension, (i + 1) * dimension), row * dimension);
    sources[row] = request.sources[i]!;
  }
}

/** The last row moves into the removed one's place. */
function remove(id: string): void {
  const row = rows.get(id);
  if (row === undefined) return;
  const last = ids.length - 1;
  if (row !== last) {
    matrix.copyWithin(row * dimension, last * dimension, (last + 1) * dimension);
    sources[row] = sources[last]!;
    ids[row] = ids[last]!;
    rows.set(ids[row]!, row);
  }
  ids.pop();
  rows.delete(id);
}

/** The topK best rows among the sources in the mask, best first (a small sorted list: topK is tens). */
function query(vector: Float32Array, topK: number, sourceMask: number): { id: string; score: number }[] {
  const best: { row: number; score: number }[] = [];
  const n = ids.length;
  // Locals, not the module's reassignable bindings, in the hot loop; four sums let the CPU overlap the multiplies.
  const m = matrix;
  const kinds = sources;
  const d = dimension;
  const q = vector;
  const tail = d - (d % 4);
  for (let row = 0; row < n; row += 1) {
    if ((kinds[row]! & sourceMask) === 0) continue;
    const base = row * d;
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    let j = 0;
    for (; j < tail; j += 4) {
      s0 += m[base + j]! * q[j]!;
      s1 += m[base + j + 1]! * q[j + 1]!;
      s2 += m[base + j + 2]! * q[j + 2]!;
      s3 += m[base + j + 3]! * q[j + 3]!;
    }
    for (; j < d; j += 1) s0 += m[base + j]! * q[j]!;
    const score = s0 + s1 + s2 + s3;
    if (best.length === topK && score <= best[best.length - 1]!.score) continue;
    let at = best.length;
    while (at > 0 && best[at - 1]!.score < score) at -= 1;
    best.splice(at, 0, { row, score });
    if (best.length > topK) best.pop();
  }
  return best.map(({ row, score }) => ({ id: ids[row]!, score }));
}

port.on("message", (request: ShardRequest) => {
  const reply: ShardReply = { seq: request.seq, size: 0 };
  if (request.op === "upsert") upsert(request);
  else if (request.op === "remove") request.ids.forEach(remove);
  else if (request.op === "clear") {
    ids.length = 0;
    rows.clear();
    matrix = new Float32Array(0);
    sources = new Uint8Array(0);
    dimension = 0;
  } else reply.hits = query(request.vector, request.topK, request.sourceMask);
  reply.size = ids.length;
  port.postMessage(reply);
});
