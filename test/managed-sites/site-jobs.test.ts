import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createServer as createHttpServer, type RequestListener, type Server } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeServer, parseObject } from "../fakes/fake-server.ts";
import { FakeSmtp } from "../fakes/smtp.ts";
import { FakeWordPress } from "../fakes/wordpress.ts";
import { startApi, userWith, type TestApi } from "../support/api.ts";
import { startInProcessWorker, type InProcessWorker } from "../support/in-process-worker.ts";
import { logged } from "../support/processes.ts";
import { until } from "../support/wait.ts";

// Issue 16 items 2 and 4, design 10.6: the long managed-site actions as jobs
// on the `dashboard` queue, started through POST /admin-ajax, run by a real
// worker process, and followed with get_job.

const RUN = `${process.pid}-${Date.now() % 100000}`;
const CHROMIUM = [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"].find((file): file is string => !!file && existsSync(file));
const ALERT_TO = "ops@agency.example";

/** Parsed JSON, read freely by the assertions. */
type Json = ReturnType<typeof JSON.parse>;

let api: TestApi;
/** The same app with no browser, no URL inspection API configured. */
let bare: TestApi;
let admin: string;
let storage: string;
let worker: InProcessWorker;
const wordpress = new FakeWordPress();
const cdn = new FakeServer({ routePrefix: "/client/v4" });
const inspection = new FakeServer();
const smtp = new FakeSmtp();
const servers: Server[] = [];
const moreWordPress: FakeWordPress[] = [];

/** A WordPress site of its own (each managed site has its own URL). */
async function anotherWordPress() {
  const site = await new FakeWordPress().start();
  moreWordPress.push(site);
  return site;
}

async function post(fields: Record<string, unknown>, on: TestApi = api) {
  const res = await fetch(`${on.url}/admin-ajax`, { method: "POST", headers: { authorization: admin, "content-type": "application/json" }, body: JSON.stringify(fields) });
  const bytes = Buffer.from(await res.arrayBuffer());
  let body: { success: boolean; data: Json };
  try {
    body = JSON.parse(bytes.toString("utf8")) as typeof body;
  } catch {
    body = { success: true, data: null };
  }
  return { status: res.status, body, headers: res.headers, bytes };
}

async function act(action: string, fields: Record<string, unknown> = {}) {
  const answer = await post({ action, ...fields });
  expect(answer, `${action} -> ${answer.bytes.toString()}`).toMatchObject({ status: 200, body: { success: true } });
  return answer.body.data;
}

/** Starts an action's job and waits, through get_job, until it has completed or failed. */
async function runJob(action: string, fields: Record<string, unknown>, timeoutMs = 20_000): Promise<Json> {
  const { job_id } = await act(action, fields);
  expect(job_id).toMatch(/^dashboard:/);
  let job: Json;
  await until(
    async () => {
      job = await act("get_job", { job_id });
      return job.state === "completed" || job.state === "failed";
    },
    () => `${action} ${job_id} to finish (last ${JSON.stringify(job)}); worker output:\n${worker.output().slice(-4000)}`,
    timeoutMs,
  );
  return job;
}

let siteSeq = 0;
async function addSite(url: string, extra: Record<string, unknown> = {}) {
  siteSeq += 1;
  return act("add_site", { name: `Managed ${siteSeq} ${RUN}`, url, client: `Jobs ${RUN}`, ...extra });
}

async function listen(server: Server): Promise<number> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

const localSite = async (handler: RequestListener) => `http://127.0.0.1:${await listen(createHttpServer(handler))}`;

beforeAll(async () => {
  storage = await mkdtemp(path.join(tmpdir(), "site-jobs-"));
  cdn.route("POST", "/zones/:zone/purge_cache", (request, { zone }) => {
    if (request.headers.authorization !== `Bearer cdn-token-${zone}`) return cdn.json(403, { success: false, errors: [{ code: 10000, message: "Authentication error" }], messages: [], result: null });
    if (parseObject(request.body)?.purge_everything !== true) return cdn.json(400, { success: false, errors: [{ code: 1012, message: "Request must contain one of purge_everything, files, tags, hosts or prefixes" }], messages: [], result: null });
    return cdn.json(200, { success: true, errors: [], messages: [], result: { id: zone } });
  });
  inspection.route("POST", "/v1/urlInspection/index:inspect", (request) => {
    if (request.headers.authorization !== "Bearer index-token") return inspection.json(401, { error: { code: 401, message: "Request had invalid authentication credentials.", status: "UNAUTHENTICATED" } });
    const body = parseObject(request.body) ?? {};
    const indexed = typeof body.inspectionUrl === "string" && !body.inspectionUrl.includes("/unknown");
    return inspection.json(200, {
      inspectionResult: {
        inspectionResultLink: `https://search.google.com/search-console/inspect?resource_id=${encodeURIComponent(String(body.siteUrl))}`,
        indexStatusResult: indexed
          ? { verdict: "PASS", coverageState: "Submitted and indexed", robotsTxtState: "ALLOWED", indexingState: "INDEXING_ALLOWED", lastCrawlTime: "2026-11-20T08:00:00Z", pageFetchState: "SUCCESSFUL", googleCanonical: body.inspectionUrl }
          : { verdict: "NEUTRAL", coverageState: "URL is unknown to Google" },
      },
    });
  });
  await Promise.all([wordpress.start(), cdn.start(), inspection.start(), smtp.start()]);
  const config = {
    STORAGE_DIR: storage,
    CDN_API_URL: `${cdn.origin}/client/v4`,
    INDEX_API_URL: inspection.origin,
    INDEX_API_TOKEN: "index-token",
    CHROME_PATH: CHROMIUM ?? "/nonexistent/chromium",
    HTTP_TIMEOUT_MS: "1500",
    SCREENSHOT_TIMEOUT_MS: "15000",
    SMTP_URL: smtp.url,
    MAIL_FROM: "platform@agency.example",
    ALERT_EMAIL_TO: ALERT_TO,
  };
  api = await startApi(config);
  bare = await startApi({ STORAGE_DIR: storage });
  admin = await userWith(api, "manage_options");
  worker = await startInProcessWorker({ ...config, WORKER_QUEUES: "dashboard,notifications" });
  await worker.waitFor(logged("workers started"));
});

afterAll(async () => {
  await worker?.stop();
  await Promise.all([api?.close(), bare?.close(), wordpress.stop(), cdn.stop(), inspection.stop(), smtp.stop(), ...moreWordPress.map((site) => site.stop())]);
  for (const server of servers) server.closeAllConnections();
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  await rm(storage, { recursive: true, force: true });
});

describe("sync_site (design 10.6)", () => {
  it("reads name, description and plugins with the application password and stores them on the site", async () => {
    wordpress.name = `Fake Shop ${RUN}`;
    wordpress.plugins = [
      { plugin: "woocommerce/woocommerce", name: "WooCommerce", version: "9.4.1", status: "active", update: { new_version: "9.5.0" } },
      { plugin: "akismet/akismet", name: "Akismet", version: "5.3", status: "inactive", update: false },
      { plugin: "hello-dolly/hello", name: "Hello Dolly", version: "1.7.2", status: "network-active" },
    ];
    const site = await addSite(wordpress.origin, { wp_username: wordpress.username, wp_app_password: wordpress.appPassword });
    const job = await runJob("sync_site", { id: site.id });
    expect(job).toMatchObject({ state: "completed", name: "site-sync", failed_reason: null, progress: { done: 2, total: 2, note: "3 plugins" }, result: { site_id: site.id, plugins: 3, active: 2, updates_available: 1 } });
    const plugins = wordpress.requests.filter((request) => request.path === "/wp-json/wp/v2/plugins");
    expect(plugins.at(-1)?.headers.authorization).toBe(`Basic ${Buffer.from(`${wordpress.username}:${wordpress.appPassword}`).toString("base64")}`);

    const stored = await act("get_site", { id: site.id });
    expect(stored).toMatchObject({ wp_name: `Fake Shop ${RUN}`, wp_description: "Just another WordPress site", synced_at: expect.any(String) });
    expect(stored.plugins).toEqual([
      { plugin: "woocommerce/woocommerce", name: "WooCommerce", version: "9.4.1", active: true, update_available: true },
      { plugin: "akismet/akismet", name: "Akismet", version: "5.3", active: false, update_available: false },
      { plugin: "hello-dolly/hello", name: "Hello Dolly", version: "1.7.2", active: true, update_available: null },
    ]);
  });

  it("joins a sync still under way instead of starting another", async () => {
    const slow = await anotherWordPress();
    slow.intercept(async () => {
      await sleep(800);
      return undefined;
    });
    const site = await addSite(slow.origin, { wp_username: slow.username, wp_app_password: slow.appPassword });
    const first = await act("sync_site", { id: site.id });
    const second = await act("sync_site", { id: site.id });
    expect(first.queued).toBe(true);
    expect(second).toEqual({ job_id: first.job_id, queued: false });
  });

  it("fails clearly on refused credentials, on a site that is not WordPress, and on a site that does not answer", async () => {
    const other = await anotherWordPress();
    const wrong = await addSite(other.origin, { wp_username: other.username, wp_app_password: "nope nope nope nope" });
    const unauthorized = await runJob("sync_site", { id: wrong.id });
    expect(unauthorized.state).toBe("failed");
    expect(unauthorized.failed_reason).toBe(`WordPress at ${other.origin} answered HTTP 401: The provided password is an invalid application password. (incorrect_password)`);

    const shop = await localSite((_req, res) => {
      res.writeHead(200, { "content-type": "text/html" }).end("<html><body>Not a blog</body></html>");
    });
    const notWordPress = await runJob("sync_site", { id: (await addSite(shop, { wp_username: "a", wp_app_password: "b" })).id });
    expect(notWordPress).toMatchObject({ state: "failed" });
    expect(notWordPress.failed_reason).toBe(`${shop} does not look like WordPress: /wp-json/ is not the WordPress REST index (text/html)`);

    const silent = await localSite(() => {});
    const timedOut = await runJob("sync_site", { id: (await addSite(silent, { wp_username: "a", wp_app_password: "b" })).id });
    expect(timedOut).toMatchObject({ state: "failed" });
    expect(timedOut.failed_reason).toBe(`WordPress at ${silent} request failed: ETIMEDOUT`);

    const bareSite = await addSite(`${wordpress.origin}/nocreds`);
    expect(await post({ action: "sync_site", id: bareSite.id })).toMatchObject({
      status: 409,
      body: { success: false, data: `Site ${bareSite.id} has no WordPress user and application password: set wp_username and wp_app_password with update_site.` },
    });
  });
});

describe("a managed site moved to another host (issue 35, finding 9)", () => {
  it("drops the stored application password, so the new host never receives it, until it is entered again", async () => {
    const [first, moved] = await Promise.all([anotherWordPress(), anotherWordPress()]);
    const site = await addSite(first.origin, { wp_username: first.username, wp_app_password: first.appPassword });
    expect(await act("update_site", { id: site.id, url: `${first.origin}/blog` })).toMatchObject({ wp_app_password_set: true });

    expect(await act("update_site", { id: site.id, url: moved.origin })).toMatchObject({ url: moved.origin, wp_username: first.username, wp_app_password_set: false });
    expect(await post({ action: "sync_site", id: site.id })).toMatchObject({
      status: 409,
      body: { success: false, data: `Site ${site.id} has no WordPress user and application password: set wp_username and wp_app_password with update_site.` },
    });
    expect(moved.requests).toEqual([]);

    expect(await act("update_site", { id: site.id, url: first.origin, wp_app_password: first.appPassword })).toMatchObject({ wp_app_password_set: true });
    expect(await runJob("sync_site", { id: site.id })).toMatchObject({ state: "completed" });
    expect(first.requests.filter((request) => request.path === "/wp-json/wp/v2/plugins").at(-1)?.headers.authorization).toBe(`Basic ${Buffer.from(`${first.username}:${first.appPassword}`).toString("base64")}`);
  });
});

describe("run_audit (issue 16, 4)", () => {
  it("measures TTFB, total time, size, compression, HTTP version, cache headers and the redirect chain, and stores them on the site", async () => {
    const page = Buffer.from(`<!doctype html><title>Audit</title>${"<p>Lorem ipsum dolor sit amet.</p>".repeat(400)}`);
    const gzipped = gzipSync(page);
    const origin = await localSite((req, res) => {
      if (req.url === "/") return void res.writeHead(301, { location: "/start" }).end();
      if (req.url === "/start") return void res.writeHead(302, { location: "/home/" }).end();
      // Headers after 300 ms, the body 200 ms later.
      setTimeout(() => {
        res.writeHead(200, { "content-type": "text/html", "content-encoding": "gzip", "cache-control": "public, max-age=600", age: "42", "x-cache": "HIT", "content-length": gzipped.length });
        res.flushHeaders();
        setTimeout(() => res.end(gzipped), 200);
      }, 300);
    });
    const site = await addSite(origin);
    const job = await runJob("run_audit", { id: site.id });
    expect(job).toMatchObject({ state: "completed", name: "site-audit" });
    const audit = job.result;
    expect(audit).toMatchObject({
      url: origin,
      final_url: `${origin}/home/`,
      status: 200,
      transfer_bytes: gzipped.length,
      content_bytes: page.length,
      compression: "gzip",
      http_version: "HTTP/1.1",
      cache: { cache_control: "public, max-age=600", age: "42", x_cache: "HIT", cf_cache_status: null },
      redirects: [
        { url: origin, status: 301, location: `${origin}/start` },
        { url: `${origin}/start`, status: 302, location: `${origin}/home/` },
      ],
    });
    expect(audit.ttfb_ms).toBeGreaterThanOrEqual(290);
    expect(audit.ttfb_ms).toBeLessThan(1500);
    expect(audit.total_ms).toBeGreaterThanOrEqual(audit.ttfb_ms + 190);

    const stored = await act("get_site", { id: site.id });
    const { site_id: _siteId, ...expected } = audit;
    expect(stored.last_audit).toEqual(expected);
    expect(stored.last_audit_at).toEqual(expect.any(String));
  });
});

describe("check_ssl (issue 16, 4)", () => {
  let origin: string;
  let expiresAt: Date;

  beforeAll(async () => {
    // A self-signed certificate made by the openssl CLI, expiring in 10 days.
    const dir = await mkdtemp(path.join(tmpdir(), "site-jobs-tls-"));
    execFileSync("openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", `${dir}/key.pem`, "-out", `${dir}/cert.pem`, "-days", "10", "-subj", "/O=Site Jobs Test/CN=Site Jobs Test CA"], { stdio: "ignore" });
    const enddate = execFileSync("openssl", ["x509", "-in", `${dir}/cert.pem`, "-noout", "-enddate"]).toString().trim().replace(/^notAfter=/, "");
    expiresAt = new Date(enddate);
    const server = createHttpsServer({ key: await readFile(`${dir}/key.pem`), cert: await readFile(`${dir}/cert.pem`) }, (_req, res) => res.end("secure"));
    origin = `https://127.0.0.1:${await listen(server)}`;
    await rm(dir, { recursive: true, force: true });
  });

  it("reads issuer and expiry in a TLS handshake and stores them on the site", async () => {
    const site = await addSite(origin);
    const job = await runJob("check_ssl", { id: site.id });
    const daysLeft = Math.floor((expiresAt.getTime() - Date.now()) / 86_400_000);
    expect(job, worker.output().slice(-6000)).toMatchObject({
      state: "completed",
      name: "ssl-check",
      result: { issuer: "Site Jobs Test (Site Jobs Test CA)", subject: "Site Jobs Test CA", expires_at: expiresAt.toISOString(), days_left: daysLeft, trusted: false, trust_error: "DEPTH_ZERO_SELF_SIGNED_CERT" },
    });
    expect(daysLeft).toBe(9);
    expect(await act("get_site", { id: site.id })).toMatchObject({ ssl_issuer: "Site Jobs Test (Site Jobs Test CA)", ssl_expires_at: expiresAt.toISOString(), ssl_days_left: daysLeft, ssl_checked_at: expect.any(String) });

    const plain = await addSite(`http://plain-${RUN}.example`);
    expect(await post({ action: "check_ssl", id: plain.id })).toMatchObject({ status: 409, body: { success: false, data: `Site ${plain.id} (http://plain-${RUN}.example) is not served over https: it has no certificate to check.` } });
  });

  it("checks every active https site without an id, alerting once per site per day on certificates expiring within 14 days", async () => {
    const site = await addSite(`${origin}/fleet`, { name: `Expiring ${RUN}` });
    const alertsFor = () => smtp.messages.filter((mail) => mail.subject.includes(`Expiring ${RUN}`));
    for (let run = 0; run < 2; run++) {
      const job = await runJob("check_ssl", {}, 60_000);
      expect(job).toMatchObject({ state: "completed", name: "ssl-check-all" });
      expect(job.result.expiring).toContainEqual({ site_id: site.id, url: `${origin}/fleet`, days_left: 9, expires_at: expiresAt.toISOString() });
      await until(() => alertsFor().length > 0, () => `the alert e-mail; worker output:\n${worker.output().slice(-3000)}`);
    }
    await until(async () => (await api.ctx.queues.get("notifications").getJobCounts("waiting", "active", "delayed")).waiting === 0, () => "the notifications queue to drain");
    await sleep(300);
    expect(alertsFor()).toHaveLength(1);
    expect(alertsFor()[0]).toMatchObject({ to: [ALERT_TO], subject: `Certificate of Expiring ${RUN} expires in 9 day(s)` });
    expect(alertsFor()[0]!.text).toContain(`Expires: ${expiresAt.toISOString()}`);
  });
});

describe("take_screenshot (issue 16, 4)", () => {
  it("says no browser is configured when CHROME_PATH is unset", async () => {
    const site = await addSite(`https://shot-${RUN}.example`);
    expect(await post({ action: "take_screenshot", id: site.id }, bare)).toMatchObject({ status: 503, body: { success: false, data: "No browser configured: set CHROME_PATH" } });
  });

  it.skipIf(!CHROMIUM)("stores a PNG of the page, downloadable by job id until the next replaces it, and fails a page that never answers instead of hanging (skipped without a Chromium here)", async () => {
    const origin = await localSite((_req, res) => {
      res.writeHead(200, { "content-type": "text/html" }).end('<!doctype html><body style="margin:0;background:#0a7"><h1>Screenshot me</h1></body>');
    });
    const site = await addSite(origin);
    const job = await runJob("take_screenshot", { id: site.id }, 60_000);
    expect(job, worker.output().slice(-3000)).toMatchObject({ state: "completed", result: { storage_key: expect.stringMatching(new RegExp(`^screenshots/site-${site.id}/.+\\.png$`)), page_status: 200, loaded: true } });
    const file = await post({ action: "get_job", job_id: job.job_id, download: 1 });
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("image/png");
    expect(file.bytes.subarray(1, 4).toString()).toBe("PNG");
    expect([file.bytes.readUInt32BE(16), file.bytes.readUInt32BE(20)]).toEqual([1366, 768]);
    expect((await act("get_site", { id: site.id })).screenshot_at).toEqual(expect.any(String));

    // Retention: a site keeps its latest screenshot; the file of the one before goes.
    const again = await runJob("take_screenshot", { id: site.id }, 60_000);
    expect(again.state).toBe("completed");
    expect((await post({ action: "get_job", job_id: again.job_id, download: 1 })).status).toBe(200);
    expect((await post({ action: "get_job", job_id: job.job_id, download: 1 })).status).not.toBe(200);

    const silent = await localSite(() => {});
    const hung = await runJob("take_screenshot", { id: (await addSite(silent)).id }, 60_000);
    expect(hung.state).toBe("failed");
    expect(hung.failed_reason).toMatch(new RegExp(`^${silent.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} did not answer the browser within [\\d.]+ s`));
  });
});

describe("update_cdn (issue 16, 4)", () => {
  it("purges the site's zone with its token, says why when the CDN refuses, and refuses a site without zone or token", async () => {
    const zone = `zone${RUN.replace(/\D/g, "")}`;
    const site = await addSite(`https://cdn-${RUN}.example`, { cdn_zone_id: zone, cdn_api_token: `cdn-token-${zone}` });
    const job = await runJob("update_cdn", { id: site.id });
    expect(job).toMatchObject({ state: "completed", name: "cdn-purge", result: { zone_id: zone, purged: true, purge_id: zone } });
    const purge = cdn.requests.find((request) => request.path === `/client/v4/zones/${zone}/purge_cache`);
    expect(parseObject(purge!.body)).toEqual({ purge_everything: true });
    expect(purge!.headers.authorization).toBe(`Bearer cdn-token-${zone}`);

    await act("update_site", { id: site.id, cdn_api_token: "stale-token" });
    const refused = await runJob("update_cdn", { id: site.id });
    expect(refused).toMatchObject({ state: "failed", failed_reason: "CDN API answered HTTP 403: 10000 Authentication error" });

    const without = await addSite(`https://nocdn-${RUN}.example`, { cdn_zone_id: "z1" });
    expect(await post({ action: "update_cdn", id: without.id })).toMatchObject({
      status: 409,
      body: { success: false, data: `Site ${without.id} has no CDN zone id and API token: set cdn_zone_id and cdn_api_token with update_site.` },
    });
  });
});

describe("check_indexed (issue 16, 4)", () => {
  it("says the URL inspection API is not configured when it is not", async () => {
    const site = await addSite(`https://index-bare-${RUN}.example`);
    expect(await post({ action: "check_indexed", id: site.id }, bare)).toMatchObject({ status: 503, body: { success: false, data: "URL inspection is not configured: set INDEX_API_URL and INDEX_API_TOKEN" } });
  });

  it("asks the inspection API about the home page or a page of the site", async () => {
    const url = `https://index-${RUN}.example`;
    const site = await addSite(url);
    const home = await runJob("check_indexed", { id: site.id });
    expect(home).toMatchObject({ state: "completed", name: "index-check", result: { url: `${url}/`, indexed: true, verdict: "PASS", coverage_state: "Submitted and indexed", last_crawl_time: "2026-11-20T08:00:00Z" } });
    const asked = inspection.requests.find((request) => parseObject(request.body)?.inspectionUrl === `${url}/`);
    expect(parseObject(asked!.body)).toEqual({ inspectionUrl: `${url}/`, siteUrl: `${url}/` });
    expect(asked!.headers.authorization).toBe("Bearer index-token");

    const unknown = await runJob("check_indexed", { id: site.id, url: `${url}/unknown-page` });
    expect(unknown.result).toMatchObject({ indexed: false, verdict: "NEUTRAL", coverage_state: "URL is unknown to Google" });
    expect(await post({ action: "check_indexed", id: site.id, url: "https://elsewhere.example/" })).toMatchObject({ status: 400, body: { success: false, data: `url: must be a page of the site (${url}/...)` } });
  });
});

describe("the OpenAPI document", () => {
  it("lists the site job actions with their inputs and examples", async () => {
    const document = (await (await fetch(`${api.url}/openapi.json`)).json()) as { paths: Record<string, Json> };
    const examples = Object.keys(document.paths["/admin-ajax"].post.requestBody.content["application/json"].examples);
    expect(examples).toEqual(expect.arrayContaining(["sync_site", "run_audit", "check_ssl", "take_screenshot", "update_cdn", "check_indexed"]));
  });
});
