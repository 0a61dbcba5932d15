import { httpsRequired, parseConfig } from "@mw/platform";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApi, userWith, type TestApi } from "../support/api.ts";
import { testEnv } from "../support/env.ts";

let behindProxy: TestApi;
let plain: TestApi;

beforeAll(async () => {
  behindProxy = await startApi({ TRUST_PROXY: "1", REQUIRE_HTTPS: "true" });
  plain = await startApi({ REQUIRE_HTTPS: "false" });
});
afterAll(async () => {
  await behindProxy.close();
  await plain.close();
});

describe("HTTPS in production (spec 1, 5)", () => {
  it("refuses a request that reached the proxy over plain HTTP, before authentication or parsing", async () => {
    const res = await fetch(`${behindProxy.url}/middleware/v1/external/orders`, {
      method: "POST",
      headers: { "x-forwarded-proto": "http", "content-type": "application/json" },
      body: "{not json",
    });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ code: "rest_https_required", message: "HTTPS is required: send the request to the https:// address.", data: { status: 403 } });
    expect(res.headers.get("strict-transport-security")).toBeNull();
  });

  it("serves HTTPS requests with HSTS", async () => {
    const admin = await userWith(behindProxy, "manage_middleware");
    const res = await fetch(`${behindProxy.url}/middleware/v1/auth/me`, { headers: { "x-forwarded-proto": "https", authorization: admin } });
    expect(res.status).toBe(200);
    expect(res.headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
  });

  it("keeps the health probes plain for the network inside", async () => {
    const res = await fetch(`${behindProxy.url}/healthz`, { headers: { "x-forwarded-proto": "http" } });
    expect(res.status).toBe(200);
  });

  it("changes nothing when it is off", async () => {
    const res = await fetch(`${plain.url}/middleware/v1/auth/me`);
    expect(res.status).toBe(403);
    expect(((await res.json()) as { code: string }).code).toBe("rest_forbidden");
    expect(res.headers.get("strict-transport-security")).toBeNull();
  });

  it("is on by default in production, and then needs TRUST_PROXY", () => {
    const env = { ...testEnv(), NODE_ENV: "production" };
    expect(() => parseConfig(env)).toThrow(/REQUIRE_HTTPS: is on \(the default when NODE_ENV=production\) but TRUST_PROXY is off/);
    expect(httpsRequired(parseConfig({ ...env, TRUST_PROXY: "1" }))).toBe(true);
    expect(httpsRequired(parseConfig({ ...env, TRUST_PROXY: "10.0.0.0/8" }))).toBe(true);
    expect(() => parseConfig({ ...env, TRUST_PROXY: "0" })).toThrow(/but TRUST_PROXY is off/);
    expect(parseConfig({ ...env, REQUIRE_HTTPS: "false" }).REQUIRE_HTTPS).toBe(false);
  });
});
