import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApi, type TestApi } from "../support/api.ts";
import { createSiteWithKey, orderBody, seedItems } from "../support/fixtures.ts";

// What anyone on the internet can send, mutated at random from valid requests:
// every answer must be below 500 and, when it is an error, in its route
// family's shape. Seeded and bounded: a failure prints its seed, and
// FUZZ_SEED=<seed> replays the same requests.
const SEED = Number(process.env.FUZZ_SEED ?? 20261120);
const REQUESTS = 420;

let api: TestApi;
let siteKey: string;
let siteId: number;

beforeAll(async () => {
  api = await startApi();
  ({ key: siteKey, siteId } = await createSiteWithKey(api.ctx.prisma));
  await seedItems(api.ctx.prisma, ["SKU-A"]);
});
afterAll(() => api.close());

/** mulberry32: small, fast, and the same sequence for the same seed everywhere. */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const random = prng(SEED);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
const chance = (p: number) => random() < p;

const ODD_STRINGS = ["", " ", "\u0000", "😀".repeat(40), "é", "\ud800", "a".repeat(5000), "<script>", "'; DROP TABLE orders; --", "%E0%A4%A", "NaN", "-0", "1e309", "\\", '"', "\n\r\t"];
function oddValue(depth = 0): unknown {
  switch (Math.floor(random() * 9)) {
    case 0:
      return null;
    case 1:
      return pick([0, -1, 1.5, 1e308, -1e308, 2 ** 53 + 1, 2147483648, Number.MAX_SAFE_INTEGER]);
    case 2:
      return pick([true, false]);
    case 3:
    case 4:
      return pick(ODD_STRINGS);
    case 5:
      return depth < 3 ? [oddValue(depth + 1), oddValue(depth + 1)] : [];
    case 6:
      return depth < 3 ? { [pick(["a", "__proto__", "constructor", "sku", ""])]: oddValue(depth + 1) } : {};
    case 7:
      return Array.from({ length: 60 }, () => 1);
    default:
      return String(Math.floor(random() * 1e6));
  }
}

/** A copy of a valid body with one to three members, at any depth, replaced, removed or added. */
function mutate(value: unknown): unknown {
  const copy = structuredClone(value) as Record<string, unknown>;
  for (let n = 1 + Math.floor(random() * 3); n > 0; n -= 1) {
    let target: Record<string, unknown> = copy;
    while (chance(0.5)) {
      const nested = Object.values(target).filter((member) => member && typeof member === "object") as Record<string, unknown>[];
      if (!nested.length) break;
      target = pick(nested);
    }
    const keys = Object.keys(target);
    const key = keys.length && chance(0.8) ? pick(keys) : pick(["extra", "site_id", "0", "line_items"]);
    if (chance(0.2)) delete target[key];
    else target[key] = oddValue();
  }
  return copy;
}

const RAW_BODIES = ["", "{", "[]", "null", "0", '"text"', "{'single': 1}", '{"a":1,}', "\u0000\u0001\u0002", "x".repeat(2000), '{"a":"\\ud800"}', `${"[".repeat(40)}${"]".repeat(40)}`, `${"[".repeat(5000)}${"]".repeat(5000)}`, `{"a":${"{\"b\":".repeat(3000)}1${"}".repeat(3000)}}`];
const CONTENT_TYPES = ["application/json", "application/json; charset=utf-8", "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/json; charset=latin1", "application/xml", ""];

interface Case {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** Which error shape the route family answers with. */
  shape: "rest" | "image";
}

function bodyFor(valid: unknown): string {
  return chance(0.2) ? pick(RAW_BODIES) : JSON.stringify(chance(0.1) ? valid : mutate(valid));
}

/** Headers any request may also carry: an encoding the body does not have, or more header than Node takes. */
function oddHeaders(): Record<string, string> {
  if (chance(0.04)) return { "content-encoding": pick(["gzip", "deflate", "br", "zstd", "identity, gzip"]) };
  if (chance(0.01)) return { "x-padding": "p".repeat(20_000) };
  return {};
}

function nextCase(): Case {
  const contentType = chance(0.8) ? "application/json" : pick(CONTENT_TYPES);
  const json: Record<string, string> = { ...(contentType ? { "content-type": contentType } : {}), ...oddHeaders() };
  const method = chance(0.9) ? "POST" : pick(["PUT", "PATCH", "DELETE", "OPTIONS", "GET"]);
  const dispute = { event_type: "dispute.created", api_response: JSON.stringify({ case_id: `F${random()}` }), request_payload: "{}", account_id: "1" };
  const product = { scope: "store/product/updated", data: { type: "product", id: 12 }, hash: "x", producer: "stores/abc" };
  switch (Math.floor(random() * 7)) {
    case 0:
    case 1: {
      const auth = chance(0.85) ? { authorization: `Bearer ${siteKey}` } : { authorization: pick(["Bearer ", "Bearer x", "Basic !!!", `Bearer ${siteKey}x`, "Bearer 😀"]) };
      return { method, path: "/middleware/v1/external/orders", headers: { ...json, ...auth }, body: bodyFor(orderBody(`F${Math.floor(random() * 1e9)}`)), shape: "rest" };
    }
    case 2:
      return { method, path: "/middleware/v1/webhooks/acquirer", headers: json, body: bodyFor(dispute), shape: "rest" };
    case 3:
      return { method, path: `/middleware/v1/webhooks/products/${pick([String(siteId), "0", "-1", "abc", "99999999999999999999", "%ZZ"])}`, headers: json, body: bodyFor(product), shape: "rest" };
    case 4:
      return { method, path: "/middleware/v1/auth/login", headers: json, body: bodyFor({ login: "fuzz", password: "fuzz-password" }), shape: "rest" };
    case 5: {
      const query = new URLSearchParams({ serial_number: String(oddValue()).slice(0, 100), api_key: pick(["", "x", "k".repeat(64)]) }).toString();
      const raw = pick([query, "serial_number=%E0%A4%A", "serial_number=%", "api_key[]=1&api_key[]=2"]);
      return { method: pick(["GET", "HEAD", "GET", "POST"]), path: `/api/${pick(["image", "image-random"])}?${raw}`, headers: {}, shape: "image" };
    }
    default: {
      const path = pick([
        "/middleware/v1/%E0%A4%A",
        "/middleware/v1/sites/%ZZ",
        "/middleware/v1/orders?page=%",
        `/middleware/v1/${"a/".repeat(300)}`,
        "/middleware/v1/external/orders/..%2F..%2Fetc",
        "/healthz",
        "/readyz",
        "/openapi.json",
        "/middleware/v1/auth/me",
        "/middleware/v1/queue?queue=%00",
      ]);
      return { method: pick(["GET", "GET", "POST", "DELETE"]), path, headers: chance(0.5) ? { "x-nonce": "x", cookie: "mw_session=abc" } : {}, shape: "rest" };
    }
  }
}

/** Sends the case byte for byte (fetch normalises paths and refuses some methods with bodies). */
async function send(request: Case): Promise<{ status: number; body: string; contentType: string }> {
  const port = Number(new URL(api.url).port);
  const body = request.body === undefined || request.method === "GET" || request.method === "HEAD" ? "" : request.body;
  const headers = { host: "fuzz.test", connection: "close", ...request.headers, ...(body || request.method !== "GET" ? { "content-length": String(Buffer.byteLength(body)) } : {}) };
  const head = `${request.method} ${request.path} HTTP/1.1\r\n${Object.entries(headers).map(([k, v]) => `${k}: ${v}`).join("\r\n")}\r\n\r\n`;
  const answer = await new Promise<Buffer>((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.write(Buffer.concat([Buffer.from(head), Buffer.from(body)])));
    const chunks: Buffer[] = [];
    socket.setTimeout(15_000, () => socket.destroy(new Error("no answer within 15 s")));
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("end", () => resolve(Buffer.concat(chunks)));
    socket.on("error", reject);
  });
  const text = answer.toString("utf8");
  const split = text.indexOf("\r\n\r\n");
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]);
  const contentType = /\r\ncontent-type: ([^\r]+)/i.exec(text.slice(0, split))?.[1] ?? "";
  let payload = text.slice(split + 4);
  // Chunked answers: keep the first chunk's data, enough to check the shape.
  if (/\r\ntransfer-encoding: chunked/i.test(text.slice(0, split))) payload = payload.slice(payload.indexOf("\r\n") + 2).replace(/\r\n0\r\n\r\n$/, "").replace(/\r\n$/, "");
  return { status, body: payload, contentType };
}

function checkShape(request: Case, answer: { status: number; body: string; contentType: string }): string | null {
  if (!(answer.status >= 100 && answer.status < 500)) return `status ${answer.status}`;
  if (answer.status < 400 || request.method === "HEAD" || !answer.contentType.includes("json")) return null;
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(answer.body) as Record<string, unknown>;
  } catch {
    return `error body is not JSON: ${answer.body.slice(0, 200)}`;
  }
  if (request.shape === "image") return typeof parsed.error === "string" ? null : `image error shape: ${answer.body.slice(0, 200)}`;
  const data = parsed.data as { status?: unknown } | undefined;
  if (typeof parsed.code !== "string" || typeof parsed.message !== "string" || data?.status !== answer.status) {
    return `REST error shape: ${answer.body.slice(0, 200)}`;
  }
  return null;
}

describe(`public endpoints under fuzzed input (FUZZ_SEED=${SEED})`, () => {
  it(`answers ${REQUESTS} mutated requests without a 5xx, every error in its route family's shape`, async () => {
    const failures: string[] = [];
    for (let i = 0; i < REQUESTS; i += 1) {
      const request = nextCase();
      const problem = checkShape(request, await send(request));
      if (problem) failures.push(`#${i} ${request.method} ${request.path} ${JSON.stringify(request.headers)} ${JSON.stringify(request.body?.slice(0, 300))}: ${problem}`);
    }
    expect(failures, `replay with FUZZ_SEED=${SEED}`).toEqual([]);
  }, 120_000);
});
