import { once } from "node:events";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type RequestListener, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { EgressGuard, type Resolver } from "@mw/platform";
import { chatMessageJob, healthPingJob } from "@mw/domains/notifications";
import { readWordPress } from "@mw/providers/wordpress";
import { capture } from "@mw/domains/managed-sites";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpSink } from "../fakes/http-sink.ts";
import { FakeWordPress } from "../fakes/wordpress.ts";
import { startApi, userWith, type TestApi } from "../support/api.ts";
import { logged, spawnEntry, type Spawned } from "../support/processes.ts";
import { settled, until } from "../support/wait.ts";

// Issue 35, finding 2: managed sites are fetched by the worker (sync, audit)
// and by Chromium (screenshots) only through the egress guard. First through
// the jobs, with ALLOW_PRIVATE_URLS=false in the API and the worker; then, in
// process, the redirect and subresource paths, which need an allowed first
// hop: `public.test` resolves to 127.0.0.1 through the test's resolver and is
// let through by name (`trustedHosts`); every other local address is refused.

const CHROMIUM = [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"].find((file): file is string => !!file && existsSync(file));
const RUN = `${process.pid}-${Date.now() % 100000}`;
const HINT = "(addresses inside the network are called only with ALLOW_PRIVATE_URLS=true)";

const resolve: Resolver = async (hostname) => (hostname === "public.test" ? [{ address: "127.0.0.1", family: 4 }] : [{ address: "10.9.8.7", family: 4 }]);
const guard = new EgressGuard({ allowPrivate: false, resolve, trustedHosts: ["public.test"] });

let api: TestApi;
let admin: string;
let worker: Spawned;
let storage: string;
const internal = new HttpSink();
const chat = new HttpSink();
const wordpress = new FakeWordPress();
const servers: Server[] = [];

async function serve(handler: RequestListener): Promise<number> {
  const server = createServer(handler);
  servers.push(server);
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return (server.address() as AddressInfo).port;
}

async function act(action: string, fields: Record<string, unknown> = {}) {
  const res = await fetch(`${api.url}/admin-ajax`, { method: "POST", headers: { authorization: admin, "content-type": "application/json" }, body: JSON.stringify({ action, ...fields }) });
  const body = (await res.json()) as { success: boolean; data: Record<string, unknown> & { job_id?: string } };
  expect(body, `${action}: ${JSON.stringify(body)}`).toMatchObject({ success: true });
  return body.data;
}

async function runJob(action: string, siteId: number) {
  const { job_id } = await act(action, { id: siteId });
  let job: Record<string, unknown> = {};
  await until(
    async () => {
      job = await act("get_job", { job_id });
      return job.state === "completed" || job.state === "failed";
    },
    () => `${action} to finish (last ${JSON.stringify(job)}); worker output:\n${worker.output().slice(-3000)}`,
    60_000,
  );
  return job;
}

let siteSeq = 0;
async function addSite(url: string, extra: Record<string, unknown> = {}) {
  siteSeq += 1;
  return (await act("add_site", { name: `Egress ${siteSeq} ${RUN}`, url, ...extra })) as { id: number };
}

beforeAll(async () => {
  storage = await mkdtemp(path.join(tmpdir(), "site-egress-"));
  await Promise.all([internal.start(), wordpress.start(), chat.start()]);
  const config = { ALLOW_PRIVATE_URLS: "false", CHAT_WEBHOOK_URL: `${chat.origin}/hooks/chat`, STORAGE_DIR: storage, CHROME_PATH: CHROMIUM ?? "/nonexistent/chromium", HTTP_TIMEOUT_MS: "1500", SCREENSHOT_TIMEOUT_MS: "15000" };
  api = await startApi(config);
  admin = await userWith(api, "manage_options");
  worker = spawnEntry("packages/worker/src/main.ts", [], { ...config, WORKER_QUEUES: "dashboard,notifications" });
  await worker.waitFor(logged("workers started"));
});

afterAll(async () => {
  worker?.child.kill("SIGKILL");
  await Promise.all([api?.close(), internal.stop(), wordpress.stop(), chat.stop()]);
  for (const server of servers) server.closeAllConnections();
  await Promise.all(servers.map((server) => new Promise((done) => server.close(done))));
  await rm(storage, { recursive: true, force: true });
});

describe("the site jobs with ALLOW_PRIVATE_URLS=false", () => {
  it("sync_site refuses a site on a local address without sending it the application password", async () => {
    const site = await addSite(wordpress.origin, { wp_username: wordpress.username, wp_app_password: wordpress.appPassword });
    const job = await runJob("sync_site", site.id);
    expect(job).toMatchObject({ state: "failed", failed_reason: `WordPress at ${wordpress.origin} request failed: the host 127.0.0.1 was refused: it is a loopback address ${HINT}` });
    expect(wordpress.requests).toEqual([]);
  });

  it("run_audit refuses it too", async () => {
    internal.requests.length = 0;
    const job = await runJob("run_audit", (await addSite(internal.origin)).id);
    expect(job).toMatchObject({ state: "failed", failed_reason: `the site at ${internal.origin} request failed: the host 127.0.0.1 was refused: it is a loopback address ${HINT}` });
    expect(internal.requests).toEqual([]);
  });

  it("check_ssl refuses to shake hands with a local address, by address or by name", async () => {
    const byAddress = await runJob("check_ssl", (await addSite(`https://127.0.0.1:${new URL(internal.origin).port}`)).id);
    expect(byAddress).toMatchObject({ state: "failed", failed_reason: `the site at 127.0.0.1:${new URL(internal.origin).port} request failed: the host 127.0.0.1 was refused: it is a loopback address ${HINT}` });
    const byName = await runJob("check_ssl", (await addSite("https://localhost:8443")).id);
    expect(byName).toMatchObject({ state: "failed", failed_reason: `the site at localhost:8443 request failed: the host localhost was refused: it resolves to a loopback address ${HINT}` });
    expect(internal.requests).toEqual([]);
  });

  it.skipIf(!CHROMIUM)("take_screenshot refuses the page before the browser opens it (skipped without a Chromium here)", async () => {
    internal.requests.length = 0;
    const job = await runJob("take_screenshot", (await addSite(`${internal.origin}/shot`)).id);
    expect(job).toMatchObject({ state: "failed", failed_reason: `${internal.origin}/shot request failed: the host 127.0.0.1 was refused: it is a loopback address ${HINT}` });
    expect(internal.requests).toEqual([]);
  });
});

describe("notification URLs with ALLOW_PRIVATE_URLS=false", () => {
  it("refuses a health-check URL on a local address; CHAT_WEBHOOK_URL from the environment is trusted", async () => {
    internal.requests.length = 0;
    const queue = api.ctx.queues.get("notifications");
    const ping = await settled(queue, await api.ctx.queues.add(healthPingJob, { url: `${internal.origin}/ping` }, { jobId: `egress-ping-${RUN}` }), worker);
    expect(ping.failedReason).toBe(`health-check URL request failed: the host 127.0.0.1 was refused: it is a loopback address ${HINT}`);
    expect(internal.requests).toEqual([]);

    const configured = await settled(queue, await api.ctx.queues.add(chatMessageJob, { text: "milestone" }, { jobId: `egress-chat-ok-${RUN}` }), worker);
    expect(configured.returnvalue).toEqual({ status: 200 });
    expect(chat.requests.map((request) => request.path)).toEqual(["/hooks/chat"]);
  });
});

describe("redirects and subresources of an allowed site", () => {
  let site: string;
  beforeAll(async () => {
    const internalPort = new URL(internal.origin).port;
    const port = await serve((req, res) => {
      if (req.url === "/wp-json/" || req.url === "/moved") {
        res.writeHead(302, { location: `http://127.0.0.1:${internalPort}/internal-page` }).end();
        return;
      }
      res.writeHead(200, { "content-type": "text/html" });
      res.end(
        `<!doctype html><body>Public page<img src="http://127.0.0.1:${internalPort}/img"><iframe src="http://localhost:${internalPort}/frame"></iframe>` +
          `<script>fetch("http://127.0.0.1:${internalPort}/fetch").catch(() => {}); fetch("http://intranet.test:${internalPort}/name").catch(() => {});</script></body>`,
      );
    });
    site = `http://public.test:${port}`;
  });

  it("readWordPress stops at a redirect to an internal address, the password unsent", async () => {
    internal.requests.length = 0;
    const error = await readWordPress(site, { username: "dash", appPassword: "abcd efgh" }, 2000, guard).catch((reason: Error) => reason);
    expect(error).toMatchObject({ code: "egress_refused", message: `WordPress at ${site} request failed: the host 127.0.0.1 was refused: it is a loopback address ${HINT}` });
    expect(internal.requests).toEqual([]);
  });

  it.skipIf(!CHROMIUM)("the browser is refused the internal page a redirect leads to (skipped without a Chromium here)", async () => {
    internal.requests.length = 0;
    const shot = await capture(CHROMIUM!, `${site}/moved`, 15_000, guard);
    expect(shot.status).toBe(403);
    expect(internal.requests).toEqual([]);
  });

  it.skipIf(!CHROMIUM)("the browser loads an allowed page without its internal images, frames and fetches; the same page with the guard lifted asks for them all (skipped without a Chromium here)", async () => {
    internal.requests.length = 0;
    const shot = await capture(CHROMIUM!, `${site}/`, 15_000, guard);
    expect([shot.status, shot.loaded]).toEqual([200, true]);
    expect(internal.requests).toEqual([]);

    const lifted = new EgressGuard({ allowPrivate: true, resolve: async () => [{ address: "127.0.0.1", family: 4 }] });
    await capture(CHROMIUM!, `${site}/`, 15_000, lifted);
    await until(
      () => internal.requests.length >= 4,
      () => `the internal requests of the page (got ${internal.requests.map((request) => request.path).join(", ")})`,
      5000,
    );
    expect(internal.requests.map((request) => request.path).sort()).toEqual(["/fetch", "/frame", "/img", "/name"]);
  });
});
