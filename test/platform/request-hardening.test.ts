import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApi, type TestApi } from "../support/api.ts";
import { createSiteWithKey } from "../support/fixtures.ts";

// Malformed requests any client can send without logging in: each gets a 4xx
// in the REST error shape, never a 500 or a stack overflow.
let api: TestApi;
let siteKey: string;
beforeAll(async () => {
  api = await startApi();
  ({ key: siteKey } = await createSiteWithKey(api.ctx.prisma));
});
afterAll(() => api.close());

async function post(path: string, body: string, headers: Record<string, string>) {
  const res = await fetch(`${api.url}${path}`, { method: "POST", headers, body });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** Sends raw bytes and returns the raw answer (fetch refuses to send what these tests need). */
async function raw(request: string): Promise<string> {
  const port = Number(new URL(api.url).port);
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.end(request));
    let answer = "";
    socket.on("data", (chunk) => (answer += chunk.toString()));
    socket.on("close", () => resolve(answer));
    socket.on("error", reject);
  });
}

const nested = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;

describe("request bodies", () => {
  for (const [path, keyed] of [
    ["/middleware/v1/auth/login", false],
    ["/middleware/v1/external/orders", true],
    ["/middleware/v1/webhooks/acquirer", false],
  ] as const) {
    it(`answers a Content-Encoding the body does not have with 400 rest_invalid_body (${path})`, async () => {
      const auth: Record<string, string> = keyed ? { authorization: `Bearer ${siteKey}` } : {};
      for (const encoding of ["gzip", "deflate", "br"]) {
        const res = await post(path, '{"login":"a","password":"b"}', { "content-type": "application/json", "content-encoding": encoding, ...auth });
        expect(res).toEqual({ status: 400, body: { code: "rest_invalid_body", message: `The request body is not valid ${encoding} data.`, data: { status: 400 } } });
      }
      const unknown = await post(path, "{}", { "content-type": "application/json", "content-encoding": "zstd-x", ...auth });
      expect(unknown.status).toBe(415);
      expect(unknown.body).toMatchObject({ code: "rest_unsupported_encoding", data: { status: 415 } });
    });
  }

  it("refuses JSON nested deeper than 64 levels with 400 before walking it, and takes 64", async () => {
    const deep = await post("/middleware/v1/external/orders", nested(5000), { "content-type": "application/json", authorization: `Bearer ${siteKey}` });
    expect(deep).toEqual({ status: 400, body: { code: "rest_invalid_json", message: "The JSON body is nested deeper than 64 levels.", data: { status: 400 } } });
    const login = await post("/middleware/v1/auth/login", `{"login":${nested(65)}}`, { "content-type": "application/json" });
    expect(login.body).toMatchObject({ code: "rest_invalid_json" });
    const shallow = await post("/middleware/v1/auth/login", `{"login":${nested(63)},"password":"x"}`, { "content-type": "application/json" });
    expect(shallow.body.code).not.toBe("rest_invalid_json");
    const webhook = await post("/middleware/v1/webhooks/acquirer", `{"a":${nested(5000)}}`, { "content-type": "application/json" });
    expect(webhook).toEqual({ status: 400, body: { code: "invalid_json", message: "The payload is nested deeper than 64 levels.", data: { status: 400 } } });
  });
});

describe("errors Node answers before Express", () => {
  it("keeps the REST error shape for headers that are too large (431), without a body for HEAD", async () => {
    const huge = `x-big: ${"a".repeat(20_000)}\r\n`;
    const get = await raw(`GET /middleware/v1/auth/me HTTP/1.1\r\nhost: x\r\n${huge}\r\n`);
    expect(get).toMatch(/^HTTP\/1\.1 431 /);
    expect(get).toMatch(/content-type: application\/json/i);
    expect(JSON.parse(get.slice(get.indexOf("\r\n\r\n") + 4))).toEqual({
      code: "rest_headers_too_large",
      message: "The request headers are too large.",
      data: { status: 431 },
    });
    const head = await raw(`HEAD /middleware/v1/auth/me HTTP/1.1\r\nhost: x\r\n${huge}\r\n`);
    expect(head).toMatch(/^HTTP\/1\.1 431 /);
    expect(head.slice(head.indexOf("\r\n\r\n") + 4)).toBe("");
  });

  it("answers a request line Node cannot parse with 400 in the REST shape", async () => {
    const answer = await raw("GET /middleware v1 nonsense\r\n\r\n");
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4))).toMatchObject({ code: "rest_bad_request", data: { status: 400 } });
  });
});
