import { createServer } from "node:net";
import { plainAnswerError, plainRequest } from "@mw/platform";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeServer } from "../fakes/fake-server.ts";

// plainRequest, the hot paths' outbound request, keeps createHttpClient's rules: User-Agent, one timeout, no retries, typed errors.
let fake: FakeServer;

beforeAll(async () => {
  fake = new FakeServer()
    .route("POST", "/echo", (request) => ({ status: 200, headers: { "content-type": "text/plain" }, body: `${request.headers["user-agent"]} ${request.headers["content-type"]} ${request.body} ✓` }))
    .route("GET", "/refused", () => fake.json(401, { errors: { authorization: ["Invalid API key."] } }))
    .route("GET", "/hang", () => "hang")
    .route("GET", "/cut", () => ({ status: 200, body: "x".repeat(10_000), cutAfter: 100 }));
  await fake.start();
});

afterAll(async () => {
  await fake.stop();
});

describe("plainRequest", () => {
  it("sends the body with the Middleware User-Agent and reads the answer in full as UTF-8", async () => {
    const answer = await plainRequest("test system", `${fake.url}/echo`, { method: "POST", headers: { "content-type": "text/plain" }, body: "a=1", timeoutMs: 2000 });
    expect(answer).toMatchObject({ status: 200, body: expect.stringMatching(/^Middleware\/\d+\.\d+\.\d+ text\/plain a=1 ✓$/) });
  });

  it("answers an error status, which plainAnswerError turns into the upstream error with the body's reason", async () => {
    const answer = await plainRequest("test system", `${fake.url}/refused`, { method: "GET", timeoutMs: 2000 });
    expect(answer.status).toBe(401);
    const error = plainAnswerError("test system", answer, (body) => ({ reason: (body as { errors: { authorization: string[] } }).errors.authorization[0] }));
    expect(error).toMatchObject({ code: "upstream_error", message: "test system answered HTTP 401: Invalid API key.", permanent: true, data: { upstream_status: 401 } });
  });

  it("gives up after the timeout, on a cut answer and on a closed port, as upstream_unreachable", async () => {
    const started = Date.now();
    await expect(plainRequest("test system", `${fake.url}/hang`, { method: "GET", timeoutMs: 300 })).rejects.toMatchObject({
      code: "upstream_unreachable",
      message: "test system request failed: ETIMEDOUT",
    });
    expect(Date.now() - started).toBeLessThan(2000);
    await expect(plainRequest("test system", `${fake.url}/cut`, { method: "GET", timeoutMs: 2000 })).rejects.toMatchObject({ code: "upstream_unreachable" });
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const { port } = closed.address() as { port: number };
    await new Promise((resolve) => closed.close(resolve));
    await expect(plainRequest("test system", `http://127.0.0.1:${port}/`, { method: "GET", timeoutMs: 2000 })).rejects.toMatchObject({
      message: "test system request failed: ECONNREFUSED",
    });
  });
});
