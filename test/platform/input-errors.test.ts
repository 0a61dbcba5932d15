import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApi, userWith, type TestApi } from "../support/api.ts";

// An invalid request names the field to fix, also where the schema is a union
// (a body of alternatives; an id given as a number or as digits), for which
// zod itself says only "Invalid input".
let api: TestApi;
beforeAll(async () => {
  api = await startApi();
}, 180_000);
afterAll(() => api.close());

async function post(path: string, authorization: string, body?: string, type = "application/json") {
  const res = await fetch(`${api.url}${path}`, { method: "POST", headers: { authorization, ...(body !== undefined && { "content-type": type }) }, body });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe("invalid input names the field", () => {
  it("POST /disputes/replay without a body says to send webhook_id or case_id", async () => {
    const auth = await userWith(api, "manage_middleware");
    expect(await post("/middleware/v1/disputes/replay", auth)).toMatchObject({
      status: 400,
      body: { code: "rest_missing_callback_param", message: "Missing parameter(s): one of webhook_id, case_id", data: { status: 400, params: ["webhook_id", "case_id"] } },
    });
    expect(await post("/middleware/v1/disputes/replay", auth, JSON.stringify({ webhook_id: "seven" }))).toMatchObject({
      status: 400,
      body: { code: "rest_invalid_param", message: "Invalid parameter(s): webhook_id" },
    });
  }, 60_000);

  it("admin AJAX get_site without an id, or with one that is not a number, says so about id", async () => {
    const auth = await userWith(api, "manage_options");
    const form = "application/x-www-form-urlencoded";
    expect(await post("/admin-ajax", auth, "action=get_site", form)).toEqual({ status: 400, body: { success: false, data: "id: is required" } });
    expect(await post("/admin-ajax", auth, "action=get_site&id=abc", form)).toEqual({ status: 400, body: { success: false, data: "id: must be a whole number" } });
  }, 60_000);
});
