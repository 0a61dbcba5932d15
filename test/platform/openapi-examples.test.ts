import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApi, type TestApi } from "../support/api.ts";

let api: TestApi;
beforeAll(async () => {
  api = await startApi();
});
afterAll(() => api.close());

/** One example, or several by name (the admin AJAX operation has one per action). */
interface Media {
  example?: unknown;
  examples?: Record<string, unknown>;
}
const shown = (media: Media) => media.example !== undefined || Object.keys(media.examples ?? {}).length > 0;

interface Operation {
  requestBody?: { content: Record<string, Media> };
  responses: Record<string, { content?: Record<string, Media> }>;
}

describe("OpenAPI examples", () => {
  it("shows a request example for every operation that takes a body and a success example for every operation", async () => {
    const doc = (await (await fetch(`${api.url}/openapi.json`)).json()) as { paths: Record<string, Record<string, Operation>> };
    const operations = Object.entries(doc.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ name: `${method.toUpperCase()} ${path}`, op })));
    expect(operations.length).toBeGreaterThan(40);
    const missing = operations.filter(({ op }) => {
      const request = op.requestBody ? Object.values(op.requestBody.content).every((media) => !shown(media)) : false;
      const successes = Object.entries(op.responses).filter(([status]) => status.startsWith("2"));
      const response = !successes.some(([, answer]) => Object.values(answer.content ?? {}).some(shown));
      return request || response;
    });
    expect(missing.map(({ name }) => name)).toEqual([]);
    const order = doc.paths["/middleware/v1/external/orders"]!.post!;
    expect(order.requestBody!.content["application/json"]!.example).toMatchObject({ order_number: "100045", payment_method: "pay_1" });
    expect(order.responses["201"]!.content!["application/json"]!.example).toEqual({ success: true, order_number: "100045", message: "Order created." });
  });
});
