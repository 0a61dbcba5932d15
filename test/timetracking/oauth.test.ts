import { createUser } from "@mw/shared/identity";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { FakeHarvest } from "../fakes/harvest.ts";
import { basicAuth, startApi, uniqueLogin, type TestApi } from "../support/api.ts";
import { ajax as timeAjax, connectStaff, enableTimeTracking, staffMember as newStaff, TIME_OPTIONS } from "../support/timetracking.ts";

const staffMember = () => newStaff(api);
const ajax = (method: string, path: string, authorization: string) => timeAjax(api, method, path, authorization);
const connect = (authorization: string) => connectStaff(api, harvest, authorization);

let harvest: FakeHarvest;
let api: TestApi;

beforeAll(async () => {
  harvest = await new FakeHarvest().start();
  api = await startApi({ HARVEST_ID_URL: harvest.url, HARVEST_API_URL: harvest.url });
});
beforeEach(() => enableTimeTracking(api, harvest));
afterAll(async () => {
  await api.ctx.options.set(Object.fromEntries(TIME_OPTIONS.map((name) => [name, null])));
  await api.close();
  await harvest.stop();
});

describe("Harvest OAuth for staff (spec 2, 4.5 rule 3)", () => {
  it("connects through connect-url and the callback page, shows the connection, and disconnects", async () => {
    const { staffId, authorization } = await staffMember();
    expect((await ajax("GET", "status", authorization)).body).toEqual({ success: true, data: { connected: false } });
    const page = await connect(authorization);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    expect(await page.text()).toContain("Connected as Sam Staff (account Agency)");
    const status = await ajax("GET", "status", authorization);
    expect(status.body).toMatchObject({ success: true, data: { connected: true, user: { id: 1001, name: "Sam Staff", email: "sam@agency.example" }, account_id: harvest.accountId } });
    const row = await api.ctx.prisma.staffOauthConnection.findUniqueOrThrow({ where: { staff_id: staffId } });
    expect(row.access_token).not.toMatch(/^at-/);
    expect(harvest.requests.filter((request) => request.path === "/v2/users/me").at(-1)!.headers["user-agent"]).toBe("Agency Desk (ops@agency.example)");
    expect((await ajax("POST", "disconnect", authorization)).body).toEqual({ success: true, data: { disconnected: true } });
    expect((await ajax("GET", "status", authorization)).body).toEqual({ success: true, data: { connected: false } });
  });

  it("accepts a state token once, and says why on the page when it cannot connect", async () => {
    const { authorization } = await staffMember();
    const { body } = await ajax("GET", "connect-url", authorization);
    const state = new URL((body.data as { url: string }).url).searchParams.get("state")!;
    const callback = (query: Record<string, string>) => fetch(`${api.url}/scp/ajax.php/timetracking/callback?${new URLSearchParams(query).toString()}`);
    expect((await callback({ code: harvest.issueCode(), state })).status).toBe(200);
    const reused = await callback({ code: harvest.issueCode(), state });
    expect(reused.status).toBe(400);
    expect(await reused.text()).toContain("This connect link has expired or was already used.");
    const denied = await callback({ error: "access_denied", state: "whatever" });
    expect(await denied.text()).toContain("Harvest did not grant access: access_denied.");
    const fresh = new URL(((await ajax("GET", "connect-url", authorization)).body.data as { url: string }).url).searchParams.get("state")!;
    const badCode = await callback({ code: "not-a-code", state: fresh });
    expect(badCode.status).toBe(400);
    expect(await badCode.text()).toContain("invalid_grant");
  });

  it("refreshes a token that expires within 600 s once, whatever the number of requests at that moment", async () => {
    const { staffId, authorization } = await staffMember();
    await connect(authorization);
    await api.ctx.prisma.staffOauthConnection.update({ where: { staff_id: staffId }, data: { token_expires_at: new Date(Date.now() + 60_000) } });
    const refreshes = harvest.grants.filter((grant) => grant === "refresh_token").length;
    const answers = await Promise.all(Array.from({ length: 10 }, () => ajax("GET", "status", authorization)));
    expect(answers.map((answer) => answer.body.success)).toEqual(Array.from({ length: 10 }, () => true));
    expect(harvest.grants.filter((grant) => grant === "refresh_token").length - refreshes).toBe(1);
    const row = await api.ctx.prisma.staffOauthConnection.findUniqueOrThrow({ where: { staff_id: staffId } });
    expect(row.token_expires_at.getTime()).toBeGreaterThan(Date.now() + 13 * 24 * 3600 * 1000);
  });

  it("answers Time tracking is disabled while time_api.enabled is off, and names missing settings", async () => {
    const { authorization } = await staffMember();
    await api.ctx.options.set({ "time_api.enabled": false });
    for (const [method, path] of [["GET", "status"], ["GET", "connect-url"], ["POST", "disconnect"]] as const) {
      expect(await ajax(method, path, authorization)).toEqual({ status: 400, body: { success: false, data: "Time tracking is disabled" } });
    }
    await api.ctx.options.set({ "time_api.enabled": true, "time_api.client_secret": null });
    expect((await ajax("GET", "connect-url", authorization)).body).toEqual({ success: false, data: "Time tracking is not configured: time_api.client_secret missing." });
    const noStaff = await createUser(api.ctx, { login: uniqueLogin("nostaff"), capabilities: ["staff"] });
    expect((await ajax("GET", "status", basicAuth(noStaff.login, noStaff.application_password))).body).toMatchObject({ success: false, data: expect.stringContaining("not linked to a staff member") });
  });
});
