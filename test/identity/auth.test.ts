import { createRedis } from "@mw/platform";
import { createUser, revokeAppPassword, setLoginPassword } from "@mw/domains/identity";
import { Worker } from "bullmq";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { basicAuth, startApi, uniqueLogin, type TestApi } from "../support/api.ts";

let api: TestApi;
let admin: { login: string; password: string };
let staff: { login: string; password: string };
const ME = "/middleware/v1/auth/me";
const QUEUE = "/middleware/v1/queue?queue=notifications";

beforeAll(async () => {
  api = await startApi();
  const adminUser = await createUser(api.ctx, { login: uniqueLogin("admin"), capabilities: ["manage_middleware"] });
  admin = { login: adminUser.login, password: adminUser.application_password };
  const staffUser = await createUser(api.ctx, { login: uniqueLogin("staff"), capabilities: ["staff"] });
  staff = { login: staffUser.login, password: staffUser.application_password };
});
afterAll(() => api.close());

function get(path: string, headers: Record<string, string> = {}) {
  return fetch(`${api.url}${path}`, { headers });
}

describe("HTTP Basic with application passwords", () => {
  it("accepts a valid application password", async () => {
    const res = await get(ME, { authorization: basicAuth(admin.login, admin.password) });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ login: admin.login, capabilities: ["manage_middleware"], via: "application_password" });
  });

  it("refuses a wrong password with 403 rest_forbidden and no Basic challenge (a browser would prompt)", async () => {
    const res = await get(ME, { authorization: basicAuth(admin.login, `${admin.password.slice(0, -1)}x`) });
    expect(res.status).toBe(403);
    expect(res.headers.get("www-authenticate")).toBeNull();
    expect(await res.json()).toEqual({ code: "rest_forbidden", message: "Invalid or revoked application password.", data: { status: 403 } });
  });

  it("refuses another user's application password", async () => {
    const res = await get(ME, { authorization: basicAuth(staff.login, admin.password) });
    expect(res.status).toBe(403);
  });

  it("refuses a revoked application password on the very next request", async () => {
    const user = await createUser(api.ctx, { login: uniqueLogin("revoked"), capabilities: ["manage_middleware"], appPasswordName: "ci" });
    const auth = { authorization: basicAuth(user.login, user.application_password) };
    expect((await get(ME, auth)).status).toBe(200);
    expect(await revokeAppPassword(api.ctx, user.login, { name: "ci" })).toBe(1);
    const res = await get(ME, auth);
    expect(res.status).toBe(403);
    expect(((await res.json()) as { code: string }).code).toBe("rest_forbidden");
  });

  it("answers 403 rest_forbidden without any credentials (spec 1, 5)", async () => {
    const res = await get(ME);
    expect(res.status).toBe(403);
    expect(res.headers.get("www-authenticate")).toBeNull();
    expect(await res.json()).toEqual({ code: "rest_forbidden", message: "Authentication required.", data: { status: 403 } });
  });
});

describe("capabilities", () => {
  it("gives 403 rest_forbidden to a user without manage_middleware on an admin route", async () => {
    const res = await get(QUEUE, { authorization: basicAuth(staff.login, staff.password) });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ code: "rest_forbidden", message: "Sorry, you are not allowed to do that.", data: { status: 403 } });
  });

  it("lets a manage_middleware user in", async () => {
    const res = await get(QUEUE, { authorization: basicAuth(admin.login, admin.password) });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ jobs: [], page: 1, per_page: 20 });
  });
});

describe("login sessions", () => {
  async function login(login: string, password: string) {
    return fetch(`${api.url}/middleware/v1/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ login, password }),
    });
  }

  it("starts a session whose cookie works with the nonce and not without it", async () => {
    const login_ = uniqueLogin("session");
    await createUser(api.ctx, { login: login_, capabilities: ["manage_middleware"] });
    await setLoginPassword(api.ctx, login_, "correct horse battery staple");

    const res = await login(login_, "correct horse battery staple");
    expect(res.status).toBe(200);
    const body = (await res.json()) as { nonce: string };
    const setCookie = res.headers.get("set-cookie") ?? "";
    expect(setCookie).toMatch(/mw_session=/);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Strict/i);
    const cookie = setCookie.split(";")[0]!;

    const withNonce = await get(ME, { cookie, "x-nonce": body.nonce });
    expect(withNonce.status).toBe(200);
    expect(((await withNonce.json()) as { via: string }).via).toBe("session");

    const withoutNonce = await get(ME, { cookie });
    expect(withoutNonce.status).toBe(403);
    expect(((await withoutNonce.json()) as { code: string }).code).toBe("rest_forbidden");

    const wrongNonce = await get(ME, { cookie, "x-nonce": "not-the-nonce" });
    expect(wrongNonce.status).toBe(403);
    // Design 10.8: the nonce may come as the _wpnonce query parameter (EventSource sends no headers).
    expect((await get(`${ME}?_wpnonce=${encodeURIComponent(body.nonce)}`, { cookie })).status).toBe(200);
    expect((await get(`${ME}?_wpnonce=not-the-nonce`, { cookie })).status).toBe(403);

    const logout = await fetch(`${api.url}/middleware/v1/auth/logout`, { method: "POST", headers: { cookie, "x-nonce": body.nonce } });
    expect(logout.status).toBe(200);
    expect((await get(ME, { cookie, "x-nonce": body.nonce })).status).toBe(403);
  });

  it("ends every session of a user when the password changes (pnpm cli user:password), the console's included", async () => {
    const login_ = uniqueLogin("pwchange");
    await createUser(api.ctx, { login: login_, capabilities: ["manage_middleware"] });
    await setLoginPassword(api.ctx, login_, "the first password");
    const sessions = [];
    for (let i = 0; i < 2; i += 1) {
      const res = await login(login_, "the first password");
      sessions.push({ cookie: (res.headers.get("set-cookie") ?? "").split(";")[0]!, nonce: ((await res.json()) as { nonce: string }).nonce });
    }
    for (const { cookie, nonce } of sessions) expect((await get(ME, { cookie, "x-nonce": nonce })).status).toBe(200);
    const console = await fetch(`${api.url}/console/`, { headers: { cookie: sessions[0]!.cookie }, redirect: "manual" });
    expect(console.headers.get("location")).not.toMatch(/\/login/);

    await setLoginPassword(api.ctx, login_, "the second password");

    for (const { cookie, nonce } of sessions) {
      const res = await get(ME, { cookie, "x-nonce": nonce });
      expect(res.status).toBe(403);
      expect(((await res.json()) as { code: string }).code).toBe("rest_forbidden");
    }
    const signedOut = await fetch(`${api.url}/console/`, { headers: { cookie: sessions[1]!.cookie }, redirect: "manual" });
    expect(signedOut.headers.get("location")).toMatch(/^\/console\/login/);
    expect((await login(login_, "the first password")).status).toBe(403);
    const fresh = await login(login_, "the second password");
    expect(fresh.status).toBe(200);
    const cookie = (fresh.headers.get("set-cookie") ?? "").split(";")[0]!;
    expect((await get(ME, { cookie, "x-nonce": ((await fresh.json()) as { nonce: string }).nonce })).status).toBe(200);
  });

  it("refuses a wrong password and sets no cookie", async () => {
    const login_ = uniqueLogin("badpw");
    await createUser(api.ctx, { login: login_, capabilities: ["staff"] });
    await setLoginPassword(api.ctx, login_, "the right password");
    const res = await login(login_, "the wrong password");
    expect(res.status).toBe(403);
    expect(res.headers.get("set-cookie")).toBeNull();
  });
});

describe("login throttle", () => {
  let throttled: TestApi;
  beforeAll(async () => {
    throttled = await startApi({ LOGIN_FAILURES_PER_LOGIN: "3", LOGIN_FAILURES_PER_IP: "6", LOGIN_FAILURE_WINDOW_SECONDS: "60" });
  });
  // The per-address count is shared by every test here and every test file of this slot (all log in from 127.0.0.1).
  async function forgetFailures(): Promise<void> {
    const keys = await throttled.ctx.redis.keys(`${throttled.ctx.config.QUEUE_PREFIX}:login-failures:*`);
    if (keys.length) await throttled.ctx.redis.del(...keys);
  }
  beforeEach(forgetFailures);
  afterEach(forgetFailures);
  afterAll(() => throttled.close());

  async function attempt(login: string, password: string) {
    const started = performance.now();
    const res = await fetch(`${throttled.url}/middleware/v1/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ login, password }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown>, retryAfter: res.headers.get("retry-after"), ms: performance.now() - started };
  }

  async function userWithPassword(password: string, prefix = "throttle"): Promise<string> {
    const login = uniqueLogin(prefix);
    await createUser(throttled.ctx, { login, capabilities: ["staff"] });
    await setLoginPassword(throttled.ctx, login, password);
    return login;
  }

  it("refuses a login with 429 after its failures, even with the right password, and a success clears the count", async () => {
    const login = await userWithPassword("the right password");
    for (let i = 0; i < 2; i += 1) expect((await attempt(login, "wrong")).status).toBe(403);
    expect((await attempt(login, "the right password")).status).toBe(200);
    for (let i = 0; i < 3; i += 1) expect((await attempt(login, "wrong")).status).toBe(403);
    const refused = await attempt(login, "the right password");
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      code: "rate_limited",
      message: expect.stringMatching(/^Too many failed logins\. Try again in \d+ seconds\.$/),
      data: { status: 429, retry_after: Number(refused.retryAfter) },
    });
    expect(Number(refused.retryAfter)).toBeGreaterThan(50);
    expect(Number(refused.retryAfter)).toBeLessThanOrEqual(60);
    expect((await attempt(await userWithPassword("another good password"), "another good password")).status).toBe(200);
  });

  it("counts parallel guesses one each: 40 at once for one user, then the right password, is refused until the window passes", async () => {
    const login = await userWithPassword("the right password");
    const guesses = await Promise.all(Array.from({ length: 40 }, () => attempt(login, "wrong")));
    const statuses = guesses.map((guess) => guess.status);
    expect(statuses.filter((status) => status === 403)).toHaveLength(3);
    expect(statuses.filter((status) => status === 429)).toHaveLength(37);
    const refused = await attempt(login, "the right password");
    expect(refused.status).toBe(429);
    expect(Number(refused.retryAfter)).toBeGreaterThan(50);
  });

  it("lets the right password in again once the window of the parallel guesses has passed", async () => {
    const short = await startApi({ LOGIN_FAILURES_PER_LOGIN: "3", LOGIN_FAILURES_PER_IP: "100", LOGIN_FAILURE_WINDOW_SECONDS: "2" });
    try {
      const login = uniqueLogin("window");
      await createUser(short.ctx, { login, capabilities: ["staff"] });
      await setLoginPassword(short.ctx, login, "the right password");
      const post = (password: string) => fetch(`${short.url}/middleware/v1/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ login, password }) }).then((res) => res.status);
      const statuses = await Promise.all(Array.from({ length: 40 }, () => post("wrong")));
      expect(statuses.filter((status) => status === 403)).toHaveLength(3);
      expect(await post("the right password")).toBe(429);
      await new Promise((done) => setTimeout(done, 2500));
      expect(await post("the right password")).toBe(200);
    } finally {
      await short.close();
    }
  });

  it("counts parallel guesses from one address one each, across logins", async () => {
    const victim = await userWithPassword("victim password");
    const guesses = await Promise.all(Array.from({ length: 20 }, () => attempt(uniqueLogin("guess"), "guess")));
    expect(guesses.filter((guess) => guess.status === 403)).toHaveLength(6);
    expect((await attempt(victim, "victim password")).status).toBe(429);
  });

  it("refuses every login from an address after its failures across logins", async () => {
    const victim = await userWithPassword("victim password");
    for (let i = 0; i < 6; i += 1) expect((await attempt(uniqueLogin("guess"), "guess")).status).toBe(403);
    expect((await attempt(victim, "victim password")).status).toBe(429);
  });

  it("counts every spelling the database takes for a login (case, accents, trailing spaces) as that login", async () => {
    const login = await userWithPassword("the right password", "opt");
    // The collation finds the user under each of these: they sign in when nothing is counted.
    const spellings = [`${login} `, `ó${login.slice(1)}`, `Ó${login.slice(1).toUpperCase()}  `];
    expect((await attempt(spellings[1]!, "the right password")).status).toBe(200);
    for (let i = 0; i < 3; i += 1) expect((await attempt(login, "wrong")).status).toBe(403);
    for (const spelling of spellings) expect((await attempt(spelling, "the right password")).status, JSON.stringify(spelling)).toBe(429);
  });

  it("counts the failures of a login no user has under its collated spelling too", async () => {
    const ghost = uniqueLogin("ghost");
    for (let i = 0; i < 3; i += 1) expect((await attempt(`${ghost} `, "guess")).status).toBe(403);
    expect((await attempt(ghost.replace("o", "ö").toUpperCase(), "guess")).status).toBe(429);
  });

  it("spends as long on an unknown login as on a known one with a wrong password", async () => {
    const known = await userWithPassword("known password");
    const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    const knownMs: number[] = [];
    const unknownMs: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      // Fresh counts each round: the timing, not the throttle, is under test.
      await forgetFailures();
      knownMs.push((await attempt(known, "wrong")).ms);
      unknownMs.push((await attempt(uniqueLogin("nobody"), "wrong")).ms);
    }
    expect(median(unknownMs) / median(knownMs)).toBeGreaterThan(0.6);
  });
});

describe("the throttled address behind proxies (TRUST_PROXY)", () => {
  let oneHop: TestApi;
  let direct: TestApi;
  const limits = { LOGIN_FAILURES_PER_LOGIN: "100", LOGIN_FAILURES_PER_IP: "3", LOGIN_FAILURE_WINDOW_SECONDS: "60" };
  beforeAll(async () => {
    [oneHop, direct] = await Promise.all([startApi({ ...limits, TRUST_PROXY: "1" }), startApi({ ...limits, TRUST_PROXY: "false" })]);
  });
  async function forgetFailures(): Promise<void> {
    const keys = await oneHop.ctx.redis.keys(`${oneHop.ctx.config.QUEUE_PREFIX}:login-failures:*`);
    if (keys.length) await oneHop.ctx.redis.del(...keys);
  }
  beforeEach(forgetFailures);
  afterEach(forgetFailures);
  afterAll(async () => {
    await Promise.all([oneHop.close(), direct.close()]);
  });

  async function attempt(target: TestApi, forwardedFor: string, login: string, password: string): Promise<number> {
    const res = await fetch(`${target.url}/middleware/v1/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": forwardedFor },
      body: JSON.stringify({ login, password }),
    });
    return res.status;
  }

  it("with TRUST_PROXY=1 counts the address the proxy appended: a forged hop before it changes nothing", async () => {
    const login = uniqueLogin("hops");
    await createUser(oneHop.ctx, { login, capabilities: ["staff"] });
    await setLoginPassword(oneHop.ctx, login, "the right password");
    // The caller writes any X-Forwarded-For; the one proxy appends the address it saw, 203.0.113.9.
    for (let i = 0; i < 3; i += 1) expect(await attempt(oneHop, `198.51.100.${i}, 203.0.113.9`, uniqueLogin("guess"), "guess")).toBe(403);
    expect(await attempt(oneHop, "198.51.100.77, 203.0.113.9", login, "the right password")).toBe(429);
    // Another client behind the same proxy is counted apart.
    expect(await attempt(oneHop, "203.0.113.10", login, "the right password")).toBe(200);
  });

  it("with TRUST_PROXY=false ignores X-Forwarded-For: every attempt is the socket's address", async () => {
    for (let i = 0; i < 3; i += 1) expect(await attempt(direct, `198.51.100.${i}`, uniqueLogin("guess"), "guess")).toBe(403);
    expect(await attempt(direct, "203.0.113.10", uniqueLogin("guess"), "guess")).toBe(429);
  });
});

describe("Bull Board", () => {
  it("asks for credentials (401) when there are none", async () => {
    const res = await get("/admin/queues");
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toMatch(/^Basic/);
  });

  it("is forbidden (403) without manage_middleware", async () => {
    const res = await get("/admin/queues", { authorization: basicAuth(staff.login, staff.password) });
    expect(res.status).toBe(403);
  });

  it("shows the board and every queue with manage_middleware", async () => {
    const auth = { authorization: basicAuth(admin.login, admin.password) };
    const page = await get("/admin/queues", auth);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/text\/html/);
    const queues = await get("/admin/queues/api/queues", auth);
    expect(queues.status).toBe(200);
    const names = ((await queues.json()) as { queues: { name: string }[] }).queues.map((q) => q.name).sort();
    expect(names).toEqual(["dashboard", "disputes", "inventory", "knowledge", "notifications", "orders", "reports", "retention", "timetracking", "tracking", "urgency", "webhooks"]);
  });

  it("takes a state-changing call from a cookie session only with the nonce or from its own origin", async () => {
    const login_ = uniqueLogin("boardop");
    await createUser(api.ctx, { login: login_, capabilities: ["manage_middleware"] });
    await setLoginPassword(api.ctx, login_, "board operator password");
    const res = await fetch(`${api.url}/middleware/v1/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ login: login_, password: "board operator password" }),
    });
    const { nonce } = (await res.json()) as { nonce: string };
    const cookie = (res.headers.get("set-cookie") ?? "").split(";")[0]!;
    const queue = api.ctx.queues.get("notifications");
    await queue.obliterate({ force: true });
    const delayed = await queue.add("health-ping", { url: "http://127.0.0.1:9/" }, { delay: 3_600_000 });
    const promote = (headers: Record<string, string>) =>
      fetch(`${api.url}/admin/queues/api/queues/notifications/${delayed.id}/promote`, { method: "PUT", headers: { cookie, ...headers } });

    expect((await fetch(`${api.url}/admin/queues/api/queues`, { headers: { cookie } })).status).toBe(200);
    const bare = await promote({});
    expect(bare.status).toBe(403);
    expect(await bare.json()).toMatchObject({ code: "rest_forbidden", data: { status: 403 } });
    expect((await promote({ origin: "https://evil.example" })).status).toBe(403);
    expect((await promote({ referer: "https://evil.example/admin/queues" })).status).toBe(403);
    expect(await queue.getJobState(delayed.id!)).toBe("delayed");
    expect((await promote({ origin: api.url })).ok).toBe(true);
    expect(await queue.getJobState(delayed.id!)).toBe("waiting");

    const second = await queue.add("health-ping", { url: "http://127.0.0.1:9/" }, { delay: 3_600_000 });
    const withNonce = await fetch(`${api.url}/admin/queues/api/queues/notifications/${second.id}/promote`, { method: "PUT", headers: { cookie, "x-nonce": nonce } });
    expect(withNonce.ok).toBe(true);
  });

  it("refuses adding a job and replacing a job's data, with the same credentials that may retry and promote", async () => {
    const auth = { authorization: basicAuth(admin.login, admin.password), "content-type": "application/json" };
    const board = `${api.url}/admin/queues/api/queues/notifications`;
    const queue = api.ctx.queues.get("notifications");
    await queue.obliterate({ force: true });

    const add = await fetch(`${board}/add`, { method: "POST", headers: auth, body: JSON.stringify({ name: "chat-message", data: { text: "hi", webhook_url: "http://127.0.0.1:9/hook" }, options: {} }) });
    expect(add.status).toBe(403);
    expect(await add.json()).toMatchObject({ error: { key: "ERRORS.FORBIDDEN" }, message: expect.stringMatching(/adding a job or changing its data is turned off/) });
    expect(await queue.getJobCounts("waiting", "delayed", "prioritized")).toEqual({ waiting: 0, delayed: 0, prioritized: 0 });

    const delayed = await queue.add("health-ping", { url: "http://127.0.0.1:9/" }, { delay: 3_600_000 });
    const update = await fetch(`${board}/${delayed.id}/update-data`, { method: "PATCH", headers: auth, body: JSON.stringify({ jobData: { url: "http://169.254.169.254/latest/meta-data/" } }) });
    expect(update.status).toBe(403);
    expect((await queue.getJob(delayed.id!))!.data).toEqual({ url: "http://127.0.0.1:9/" });

    expect((await fetch(`${board}/${delayed.id}/promote`, { method: "PUT", headers: auth })).ok).toBe(true);
  });

  it("retries a failed job, promotes a delayed one and cleans failed ones", async () => {
    const auth = { authorization: basicAuth(admin.login, admin.password) };
    const board = `${api.url}/admin/queues/api/queues/notifications`;
    const queue = api.ctx.queues.get("notifications");
    await queue.obliterate({ force: true });

    const failing = await queue.add("health-ping", { url: "http://127.0.0.1:9/" }, { attempts: 1 });
    const worker = new Worker("notifications", null, { connection: createRedis(api.ctx.config.REDIS_URL, { blocking: true }), prefix: api.ctx.config.QUEUE_PREFIX, autorun: false });
    const fetched = await worker.getNextJob("token-1", { block: false });
    expect(fetched?.id).toBe(failing.id);
    await fetched!.moveToFailed(new Error("boom"), "token-1", false);
    await worker.close();
    expect(await queue.getJobState(failing.id!)).toBe("failed");

    const retry = await fetch(`${board}/${failing.id}/retry`, { method: "PUT", headers: auth });
    expect(retry.ok).toBe(true);
    expect(await queue.getJobState(failing.id!)).toBe("waiting");

    const delayed = await queue.add("health-ping", { url: "http://127.0.0.1:9/" }, { delay: 3_600_000 });
    const promote = await fetch(`${board}/${delayed.id}/promote`, { method: "PUT", headers: auth });
    expect(promote.ok).toBe(true);
    expect(await queue.getJobState(delayed.id!)).toBe("waiting");

    const staffTry = await fetch(`${board}/${delayed.id}/promote`, { method: "PUT", headers: { authorization: basicAuth(staff.login, staff.password) } });
    expect(staffTry.status).toBe(403);

    const worker2 = new Worker("notifications", null, { connection: createRedis(api.ctx.config.REDIS_URL, { blocking: true }), prefix: api.ctx.config.QUEUE_PREFIX, autorun: false });
    const again = (await worker2.getNextJob("token-2", { block: false }))!;
    await again.moveToFailed(new Error("boom again"), "token-2", false);
    await worker2.close();
    expect(await queue.getJobCountByTypes("failed")).toBe(1);
    // The bulk clean keeps jobs younger than 5 s; cleaning one job removes it at once.
    const clean = await fetch(`${board}/${again.id}/clean`, { method: "PUT", headers: auth });
    expect(clean.ok).toBe(true);
    expect(await queue.getJobCountByTypes("failed")).toBe(0);
  });
});
