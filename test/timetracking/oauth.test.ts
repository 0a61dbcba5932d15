import { createUser } from "@mw/domains/identity";
import { operatorAlertJobId } from "@mw/domains/notifications";
import { runTimeSync } from "@mw/domains/timetracking";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { FakeHarvest } from "../fakes/harvest.ts";
import { basicAuth, startApi, uniqueLogin, type TestApi } from "../support/api.ts";
import { ajax as timeAjax, callback as timeCallback, connectLink, connectStaff, enableTimeTracking, staffMember as newStaff, TIME_OPTIONS } from "../support/timetracking.ts";

const staffMember = () => newStaff(api);
const ajax = (method: string, path: string, authorization: string, body?: unknown) => timeAjax(api, method, path, authorization, body);
const connect = (authorization: string) => connectStaff(api, harvest, authorization);
/** What /readyz says of credentials an upstream refuses (other files' refusals may be named beside these). */
const readyCredentials = () => fetch(`${api.url}/readyz`).then((res) => res.json() as Promise<{ status: string; checks: { credentials: { ok: boolean; error?: string } } }>);

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
    const { state, cookie } = await connectLink(api, authorization);
    const callback = (query: Record<string, string>, from = cookie) => timeCallback(api, query, { cookie: from });
    expect((await callback({ code: harvest.issueCode(), state })).status).toBe(200);
    const reused = await callback({ code: harvest.issueCode(), state });
    expect(reused.status).toBe(400);
    expect(await reused.text()).toContain("This connect link has expired or was already used.");
    const denied = await callback({ error: "access_denied", state: "whatever" });
    expect(await denied.text()).toContain("Harvest did not grant access: access_denied.");
    const fresh = await connectLink(api, authorization);
    const badCode = await callback({ code: "not-a-code", state: fresh.state }, fresh.cookie);
    expect(badCode.status).toBe(400);
    expect(await badCode.text()).toContain("invalid_grant");
  });

  it("binds the state to the browser that asked for the link: another browser, or another staff member, cannot complete it", async () => {
    const a = await staffMember();
    const b = await staffMember();
    const link = await connectLink(api, a.authorization);
    const bLink = await connectLink(api, b.authorization);
    const tokensBefore = harvest.grants.length;

    // B opens A's link in B's own browser, signs in at Harvest as B, and comes back.
    for (const from of <Record<string, string>[]>[{}, { cookie: bLink.cookie }, { authorization: b.authorization }, { cookie: "mw_harvest_connect=forged" }]) {
      const page = await timeCallback(api, { code: harvest.issueCode(), state: link.state }, from);
      expect(page.status, JSON.stringify(from)).toBe(400);
      expect(await page.text()).toContain("This connect link was opened in another browser than the one that asked for it.");
    }
    expect(harvest.grants.length).toBe(tokensBefore);
    expect((await ajax("GET", "status", a.authorization)).body).toEqual({ success: true, data: { connected: false } });

    // The link's cookie: for the callback alone, and one that a redirect from Harvest's site still brings back.
    expect(link.setCookie).toMatch(/^mw_harvest_connect=[A-Za-z0-9_-]{32}; Max-Age=600; Path=\/scp\/ajax.php\/timetracking\/callback; HttpOnly; SameSite=Lax$/);
    // A's own browser still can: the refusals did not spend the link. The cookie is cleared once used.
    const done = await timeCallback(api, { code: harvest.issueCode(), state: link.state }, { cookie: link.cookie });
    expect(done.status).toBe(200);
    expect(done.headers.get("set-cookie")).toMatch(/^mw_harvest_connect=; Max-Age=0; Path=\/scp\/ajax.php\/timetracking\/callback;/);
    expect((await ajax("GET", "status", a.authorization)).body).toMatchObject({ success: true, data: { connected: true } });

    // Through the ticket system the proxy keeps cookies to itself and speaks for its agent: the agent who asked may finish.
    const viaAgent = await connectLink(api, b.authorization);
    expect((await timeCallback(api, { code: harvest.issueCode(), state: viaAgent.state }, { authorization: b.authorization })).status).toBe(200);
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

  it("marks a connection whose refresh token Harvest revoked broken: status and calls say reconnect, one notification, Harvest asked once; reconnecting mends it", async () => {
    const { staffId, authorization } = await staffMember();
    await connect(authorization);
    await api.ctx.prisma.staffOauthConnection.update({ where: { staff_id: staffId }, data: { token_expires_at: new Date(Date.now() + 60_000) } });
    // The staff member revoked the app at Harvest: every refresh token of it is refused (invalid_grant).
    harvest.refreshTokens.clear();
    const refreshes = () => harvest.grants.filter((grant) => grant === "refresh_token").length;
    const before = refreshes();

    const status = await ajax("GET", "status", authorization);
    expect(status.body).toEqual({ success: true, data: { connected: false, reconnect: true, reason: expect.stringContaining("invalid_grant") } });
    // Later calls do not ask Harvest again: the connection stays broken until the staff member reconnects.
    const again = await Promise.all([ajax("GET", "status", authorization), ajax("GET", "status", authorization), ajax("GET", "timer/1", authorization)]);
    expect(again[0]!.body).toMatchObject({ data: { reconnect: true } });
    expect(again[2]).toMatchObject({ status: 403, body: { success: false, data: expect.stringContaining("Reconnect to Harvest") } });
    expect(refreshes() - before).toBe(1);

    const notifications = await fetch(`${api.url}/scp/ajax.php/notifications`, { headers: { authorization } }).then((res) => res.json() as Promise<{ data: { notifications: { kind: string; title: string; body: string }[] } }>);
    const reconnects = notifications.data.notifications.filter((notification) => notification.kind === "harvest_reconnect");
    expect(reconnects).toEqual([expect.objectContaining({ title: "Reconnect to Harvest", body: expect.stringContaining("invalid_grant") })]);

    await connect(authorization);
    expect((await ajax("GET", "status", authorization)).body).toMatchObject({ success: true, data: { connected: true, user: { name: "Sam Staff" } } });
    expect(await api.ctx.prisma.staffOauthConnection.findUniqueOrThrow({ where: { staff_id: staffId } })).toMatchObject({ broken_at: null, broken_reason: null });
  });

  it("marks a connection whose access token Harvest stopped accepting (a 401 on an API call) reconnect at once: status, next action and one notification say so", async () => {
    const { staffId, authorization } = await staffMember();
    await connect(authorization);
    // Revoked at Harvest: the token is refused long before it would expire.
    harvest.accessTokens.clear();

    const status = await ajax("GET", "status", authorization);
    expect(status.body).toEqual({ success: true, data: { connected: false, reconnect: true, reason: expect.stringContaining("invalid_token") } });
    expect(await api.ctx.prisma.staffOauthConnection.findUniqueOrThrow({ where: { staff_id: staffId } })).toMatchObject({ broken_at: expect.any(Date) });
    const next = await ajax("GET", "timer/1", authorization);
    expect(next).toMatchObject({ status: 403, body: { success: false, data: expect.stringContaining("Reconnect to Harvest") } });
    const notifications = await fetch(`${api.url}/scp/ajax.php/notifications`, { headers: { authorization } }).then((res) => res.json() as Promise<{ data: { notifications: { kind: string; body: string }[] } }>);
    expect(notifications.data.notifications.filter((notification) => notification.kind === "harvest_reconnect")).toEqual([
      expect.objectContaining({ body: expect.stringContaining("Harvest no longer accepts its access token") }),
    ]);
  });

  it("raises one operator alert when Harvest refuses the platform's app credentials (invalid_client) at refresh, and keeps every agent's tokens", async () => {
    const staff = [await staffMember(), await staffMember()];
    for (const { staffId, authorization } of staff) {
      await connect(authorization);
      await api.ctx.prisma.staffOauthConnection.update({ where: { staff_id: staffId }, data: { token_expires_at: new Date(Date.now() + 60_000) } });
    }
    const notifications = api.ctx.queues.get("notifications");
    await (await notifications.getJob(operatorAlertJobId("harvest-app-credentials")))?.remove();
    await api.ctx.options.set({ "time_api.client_secret": "a-mistyped-secret" });

    for (const { authorization } of [...staff, ...staff]) {
      const answer = await ajax("GET", "status", authorization);
      expect(answer).toMatchObject({ status: 503, body: { success: false, data: expect.stringContaining("Harvest refused the platform's app settings") } });
    }
    for (const { staffId } of staff) {
      expect(await api.ctx.prisma.staffOauthConnection.findUniqueOrThrow({ where: { staff_id: staffId } })).toMatchObject({ broken_at: null, broken_reason: null });
    }
    const alerts = (await notifications.getJobs(["waiting", "delayed", "prioritized", "active", "completed", "failed"])).filter((job) => job.id === operatorAlertJobId("harvest-app-credentials"));
    expect(alerts).toEqual([expect.objectContaining({ data: expect.objectContaining({ subject: "Time tracking stopped: Harvest refused the platform's app credentials", text: expect.stringContaining("time_api.client_secret") }) })]);
    // Issue 43, point 4: /readyz says so as long as it lasts.
    const refused = await readyCredentials();
    expect(refused.status).toBe("degraded");
    expect(refused.checks.credentials.error).toContain("time tracking: Harvest refused the platform's app settings (invalid_client): check time_api.client_id and time_api.client_secret");

    // The settings put right: the kept tokens renew on the agents' next action, nobody reconnects.
    await api.ctx.options.set({ "time_api.client_secret": harvest.clientSecret });
    for (const { authorization } of staff) expect((await ajax("GET", "status", authorization)).body).toMatchObject({ success: true, data: { connected: true } });
    expect((await readyCredentials()).checks.credentials.error ?? "").not.toContain("app settings");
  });

  it("says on /readyz that the platform's own connection needs reconnecting while Harvest refuses its sync token (401), until a sync gets through", async () => {
    const sync = () => runTimeSync({ ...api.ctx, log: api.ctx.logger, config: { ...api.ctx.config, TIME_SYNC_DELAY_MS: 0 } }, false);
    // Revoked at Harvest: the token is no longer one it knows.
    await api.ctx.options.set({ "time_api.sync_token": "pat-revoked-at-harvest" });
    await expect(sync()).rejects.toThrow(/401/);
    const refused = await readyCredentials();
    expect(refused.status).toBe("degraded");
    expect(refused.checks.credentials.error).toMatch(/time tracking: Harvest refused the platform's sync token \(.*401.*\): reconnect by entering a new time_api\.sync_token/);

    await api.ctx.options.set({ "time_api.sync_token": harvest.personalToken() });
    await sync();
    expect((await readyCredentials()).checks.credentials.error ?? "").not.toContain("sync token");
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
