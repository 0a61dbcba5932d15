import { createRedis } from "@mw/platform";
import { HarvestClient } from "@mw/providers/harvest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeHarvest } from "../fakes/harvest.ts";
import { failure } from "../support/errors.ts";

let harvest: FakeHarvest;
const redis = createRedis(process.env.REDIS_URL!);
let prefix = "";

// Harvest's 100 requests, over 3 s rather than its 15 s: the limiter's test spills into a second window, and waits it out.
const LIMIT = { requests: 100, windowMs: 3_000 };

function client(userAgent = "Agency Desk (ops@agency.example)") {
  return new HarvestClient({ HARVEST_ID_URL: harvest.url, HARVEST_API_URL: harvest.url, HTTP_TIMEOUT_MS: 2000, QUEUE_PREFIX: prefix }, redis, userAgent, LIMIT);
}

beforeAll(async () => {
  harvest = await new FakeHarvest().start();
  harvest.rateLimit = LIMIT;
  prefix = `${process.env.QUEUE_PREFIX}:harvest-test-${Date.now()}`;
});
afterAll(async () => {
  await harvest.stop();
  await redis.quit();
});

describe("Harvest client (contract sheet, section 1)", () => {
  it("builds the authorize URL, exchanges a code, refreshes (rotating the refresh token) and lists the token's accounts", async () => {
    const url = new URL(client().authorizeUrl({ clientId: harvest.clientId, redirectUri: "https://desk.example/scp/ajax.php/timetracking/callback", state: "s1" }));
    expect(`${url.origin}${url.pathname}`).toBe(`${harvest.url}/oauth2/authorize`);
    expect(Object.fromEntries(url.searchParams)).toEqual({ client_id: harvest.clientId, response_type: "code", state: "s1", redirect_uri: "https://desk.example/scp/ajax.php/timetracking/callback" });
    const tokens = await client().exchangeCode({ clientId: harvest.clientId, clientSecret: harvest.clientSecret, code: harvest.issueCode() });
    expect(tokens.expires_in).toBe(harvest.tokenLifetime);
    const refreshed = await client().refresh({ clientId: harvest.clientId, clientSecret: harvest.clientSecret, refreshToken: tokens.refresh_token });
    expect(refreshed.access_token).not.toBe(tokens.access_token);
    const spent = await failure(client().refresh({ clientId: harvest.clientId, clientSecret: harvest.clientSecret, refreshToken: tokens.refresh_token }));
    expect(spent.message).toContain("invalid_grant");
    expect(spent.permanent).toBe(true);
    expect(await client().accounts(refreshed.access_token)).toMatchObject({ user: { email: "sam@agency.example" }, accounts: [{ id: harvest.accountId, product: "harvest" }] });
  });

  it("sends the account header and the User-Agent, creates clients and projects, and follows links.next to the end", async () => {
    const auth = { accessToken: harvest.personalToken(), accountId: harvest.accountId };
    const acme = await client().createClient(auth, { name: "ACME" });
    const project = await client().createProject(auth, { client_id: acme.id, name: "#004512 Checkout down", is_billable: true, bill_by: "Project", budget_by: "project", budget: 10 });
    expect(project).toMatchObject({ name: "#004512 Checkout down", client: { id: acme.id }, budget: 10 });
    for (let n = 0; n < 4500; n += 1) harvest.addEntry(harvest.projects.find((candidate) => candidate.id === project.id)!, { hours: 0.25 });
    const before = harvest.requests.length;
    const entries = await client().timeEntries(auth, { project_id: project.id });
    expect(entries).toHaveLength(4500);
    expect(new Set(entries.map((entry) => entry.id)).size).toBe(4500);
    const pages = harvest.requests.slice(before);
    expect(pages.map((request) => request.query.get("per_page"))).toEqual(["2000", "2000", "2000"]);
    expect(pages[1]!.query.get("cursor")).toBeTruthy();
    expect(pages.every((request) => request.headers["harvest-account-id"] === String(harvest.accountId) && request.headers["user-agent"] === "Agency Desk (ops@agency.example)")).toBe(true);
    expect((await client().taskAssignments(auth, project.id)).map((assignment) => assignment.task.name)).toEqual(["Support", "Development"]);
  });

  it("starts a running timer, stops it, and is refused stopping it twice", async () => {
    const auth = { accessToken: harvest.personalToken(), accountId: harvest.accountId };
    const project = harvest.addProject({ name: "Timers" });
    const running = await client().createTimeEntry(auth, { project_id: project.id, task_id: 501, spent_date: "2026-11-25" });
    expect(running).toMatchObject({ is_running: true, hours: 0 });
    await client().updateTimeEntry(auth, running.id, { notes: "Fix checkout" });
    expect(await client().stopTimeEntry(auth, running.id)).toMatchObject({ is_running: false, notes: "Fix checkout" });
    const again = await failure(client().stopTimeEntry(auth, running.id));
    expect(again.message).toContain("Time entry is not running");
    expect(again.permanent).toBe(true);
    const manual = await client().createTimeEntry(auth, { project_id: project.id, task_id: 502, spent_date: "2026-11-25", hours: 1.5, notes: "Deploy fix" });
    expect(manual).toMatchObject({ is_running: false, hours: 1.5 });
    await client().deleteTimeEntry(auth, manual.id);
    expect(harvest.entries.some((entry) => entry.id === manual.id)).toBe(false);
  });

  it("keeps two clients under the account's limit together and waits out a 429's Retry-After", async () => {
    const auth = { accessToken: harvest.personalToken(), accountId: harvest.accountId };
    const project = harvest.addProject({ name: "Limits" });
    const admitted = harvest.admitted.length;
    const [first, second] = [client(), client()];
    const started = Date.now();
    // Earlier tests used part of this window: 130 calls must spill into the next one.
    await Promise.all(Array.from({ length: 130 }, (_, n) => (n % 2 ? first : second).project(auth, project.id)));
    expect(harvest.admitted.length - admitted).toBe(130);
    expect(harvest.refused).toBe(0);
    expect(harvest.busiestWindow()).toBeLessThanOrEqual(100);
    expect(Date.now() - started).toBeGreaterThan(1000);

    // A limit the client does not know about (another app on the account): one 429, then through.
    harvest.rateLimit = { requests: 1, windowMs: 1500 };
    await new Promise((resolve) => setTimeout(resolve, 1600));
    await client().project(auth, project.id);
    const waited = Date.now();
    await client().project(auth, project.id);
    expect(harvest.refused).toBe(1);
    expect(Date.now() - waited).toBeGreaterThanOrEqual(900);
    harvest.rateLimit = LIMIT;
  }, 40_000);

  it("answers 400 without a User-Agent, as Harvest does", async () => {
    const auth = { accessToken: harvest.personalToken(), accountId: harvest.accountId };
    expect((await failure(client("").me(auth))).message).toContain("User-Agent header is required");
  });
});
