import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createUser, setLoginPassword } from "@mw/domains/identity";
import { managedSitesForExport } from "@mw/domains/managed-sites";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { basicAuth, startApi, uniqueLogin, userWith, type TestApi } from "../support/api.ts";
import { startInProcessWorker, type InProcessWorker } from "../support/in-process-worker.ts";
import { logged } from "../support/processes.ts";
import { until } from "../support/wait.ts";

// Spec 2, 4.4 and design 10.6 / 10.8: every dashboard action through POST /admin-ajax.

let api: TestApi;
let admin: string;
let storage: string;
const RUN = `${process.pid}-${Date.now() % 100000}`;

/** Parsed JSON, read freely by the assertions. */
type Json = ReturnType<typeof JSON.parse>;

interface Answer {
  status: number;
  body: { success: boolean; data: Json };
  headers: Headers;
  text: string;
}

async function post(fields: Record<string, unknown>, headers: Record<string, string> = { authorization: admin }, form = false): Promise<Answer> {
  const res = await fetch(`${api.url}/admin-ajax`, {
    method: "POST",
    headers: { ...headers, "content-type": form ? "application/x-www-form-urlencoded" : "application/json" },
    body: form ? new URLSearchParams(fields as Record<string, string>).toString() : JSON.stringify(fields),
  });
  const text = await res.text();
  let body: Answer["body"];
  try {
    body = JSON.parse(text) as Answer["body"];
  } catch {
    body = { success: true, data: text };
  }
  return { status: res.status, body, headers: res.headers, text };
}

/** An action that must succeed: its data. */
async function act(action: string, fields: Record<string, unknown> = {}) {
  const answer = await post({ action, ...fields });
  expect(answer, `${action} -> ${answer.text}`).toMatchObject({ status: 200, body: { success: true } });
  return answer.body.data;
}

const site = (suffix: string, extra: Record<string, unknown> = {}) => ({ name: `Site ${suffix} ${RUN}`, url: `https://${suffix}-${RUN}.example`, ...extra });

beforeAll(async () => {
  storage = await mkdtemp(path.join(tmpdir(), "admin-ajax-"));
  api = await startApi({ STORAGE_DIR: storage });
  admin = await userWith(api, "manage_options");
});

afterAll(async () => {
  await api.close();
  await rm(storage, { recursive: true, force: true });
});

describe("the admin AJAX entry point (spec 2, 4.4 and 5)", () => {
  it("answers Insufficient permissions without manage_options, and to a session without its nonce", async () => {
    const staff = await userWith(api, "staff");
    expect(await post({ action: "get_sites" }, { authorization: staff })).toMatchObject({ status: 403, body: { success: false, data: "Insufficient permissions" } });
    expect(await post({ action: "get_sites" }, {})).toMatchObject({ status: 403, body: { success: false, data: "Insufficient permissions" } });

    const login = uniqueLogin("dash");
    await createUser(api.ctx, { login, capabilities: ["manage_options"] });
    await setLoginPassword(api.ctx, login, "a long enough dashboard password");
    const session = await fetch(`${api.url}/middleware/v1/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ login, password: "a long enough dashboard password" }) });
    const { nonce } = (await session.json()) as { nonce: string };
    const cookie = session.headers.get("set-cookie")!.split(";")[0]!;
    expect(await post({ action: "get_sites" }, { cookie }, true)).toMatchObject({ status: 403, body: { success: false, data: "Insufficient permissions" } });
    expect(await post({ action: "get_sites", nonce: "forged" }, { cookie }, true)).toMatchObject({ status: 403, body: { data: "Insufficient permissions" } });
    // A dashboard form: the nonce as a field, numbers as text.
    expect(await post({ action: "get_sites", nonce, page: "1", per_page: "5" }, { cookie }, true)).toMatchObject({ status: 200, body: { success: true, data: { page: 1, per_page: 5 } } });
  });

  it("answers Unknown action, and names the field that is missing or wrong", async () => {
    expect(await post({ action: "drop_everything" })).toMatchObject({ status: 400, body: { success: false, data: "Unknown action" } });
    expect(await post({})).toMatchObject({ status: 400, body: { success: false, data: "Unknown action" } });
    expect(await post({ action: "add_site", url: "https://x.example" })).toMatchObject({ status: 400, body: { success: false, data: "name: is required" } });
    expect((await post({ action: "add_site", name: "X", url: "ftp://x.example" })).body.data).toMatch(/^url: /);
    expect((await post({ action: "get_sites", per_page: "500" })).body.data).toMatch(/^per_page: /);
    expect((await post({ action: "add_cost", name: "A", vendor: "B", amount: "12.345", currency: "EUR", cycle: "monthly" })).body.data).toMatch(/^amount: /);
    expect(await post({ action: "get_site", id: 2_000_000_000 })).toMatchObject({ status: 404, body: { success: false } });
  });

  it("lists every action, its input and an example in the OpenAPI document", async () => {
    const document = (await (await fetch(`${api.url}/openapi.json`)).json()) as { paths: Record<string, Json> };
    const operation = document.paths["/admin-ajax"].post;
    const examples = Object.keys(operation.requestBody.content["application/json"].examples);
    for (const action of ["get_sites", "get_site", "add_site", "update_site", "delete_site", "archive_site", "get_costs", "get_cost", "add_cost", "update_cost", "delete_cost", "assign_cost_to_site", "remove_cost_from_site", "get_licenses", "map_license", "add_license", "update_license", "delete_license", "generate_report", "export_sites", "export_plugins", "search_sites", "test_ticket_urgency", "ai_rewrite", "ai_clear_cache", "get_job"]) {
      expect(examples).toContain(action);
    }
    expect(JSON.stringify(operation.requestBody.content["application/json"].schema)).toContain("wp_app_password");
  });
});

describe("managed sites (design 10.6)", () => {
  it("adds, reads, updates, archives, searches and deletes sites; secrets are stored encrypted and never shown", async () => {
    const added = await act("add_site", site("alpha", { client: `Client ${RUN}`, hosting: "Kinsta", wp_username: "dash", wp_app_password: "abcd efgh ijkl mnop", cdn_api_token: "cdn-secret-token" }));
    expect(added).toMatchObject({ status: "active", client: `Client ${RUN}`, wp_app_password_set: true, cdn_api_token_set: true, url: `https://alpha-${RUN}.example` });
    expect(JSON.stringify(added)).not.toMatch(/abcd efgh|cdn-secret-token/);
    const row = await api.ctx.prisma.managedSite.findUniqueOrThrow({ where: { id: added.id } });
    expect(row.wp_app_password).not.toContain("abcd");
    expect(row.cdn_api_token).not.toContain("cdn-secret");

    expect(await post({ action: "add_site", ...site("alpha"), url: `https://alpha-${RUN}.example/` })).toMatchObject({ status: 409, body: { success: false } });

    const updated = await act("update_site", { id: added.id, hosting: "WP Engine", notes: "", cdn_api_token: "" });
    expect(updated).toMatchObject({ hosting: "WP Engine", notes: null, cdn_api_token_set: false, wp_app_password_set: true, name: added.name });

    const beta = await act("add_site", site("beta", { client: `Client ${RUN}` }));
    await api.ctx.prisma.managedSite.update({ where: { id: beta.id }, data: { ssl_expires_at: new Date(Date.now() + 5 * 86_400_000) } });
    const byClient = await act("get_sites", { client: `Client ${RUN}` });
    expect(byClient.sites.map((s: { id: number }) => s.id)).toEqual([added.id, beta.id]);
    expect((await act("get_sites", { client: `Client ${RUN}`, ssl_expiring_days: 14 })).sites.map((s: { id: number }) => s.id)).toEqual([beta.id]);
    expect((await act("get_sites", { search: `beta-${RUN}` })).sites).toHaveLength(1);
    const firstPage = await act("get_sites", { client: `Client ${RUN}`, per_page: 1 });
    expect(firstPage).toMatchObject({ total: 2, page: 1, per_page: 1, total_pages: 2 });

    expect(await act("archive_site", { id: beta.id })).toMatchObject({ status: "archived" });
    expect((await act("get_sites", { client: `Client ${RUN}` })).sites.map((s: { id: number }) => s.id)).toEqual([added.id]);
    expect((await act("get_sites", { client: `Client ${RUN}`, status: "archived" })).sites.map((s: { id: number }) => s.id)).toEqual([beta.id]);
    expect((await act("get_sites", { client: `Client ${RUN}`, status: "all" })).total).toBe(2);
    expect((await act("search_sites", { q: `beta-${RUN}` })).sites).toEqual([{ id: beta.id, name: beta.name, url: beta.url, client: `Client ${RUN}`, status: "archived" }]);

    expect(await act("delete_site", { id: beta.id })).toEqual({ deleted: true, id: beta.id });
    expect(await post({ action: "get_site", id: beta.id })).toMatchObject({ status: 404, body: { success: false } });
  });
});

describe("costs and licenses (design 10.6 and 10.8)", () => {
  it("computes a cost's monthly equivalent and each site's share, and a site's monthly total", async () => {
    const one = await act("add_site", site("cost-one"));
    const two = await act("add_site", site("cost-two"));
    const hosting = await act("add_cost", { name: "Hosting", vendor: `Vendor ${RUN}`, amount: "300", currency: "eur", cycle: "yearly", renews_on: "2027-03-01" });
    expect(hosting).toMatchObject({ amount: 300, currency: "EUR", monthly_amount: 25, site_ids: [], per_site_monthly_share: null, renews_on: "2027-03-01" });
    const cdn = await act("add_cost", { name: "CDN", vendor: `Vendor ${RUN}`, amount: 9.99, currency: "EUR", cycle: "monthly" });

    await act("assign_cost_to_site", { cost_id: hosting.id, site_id: one.id });
    expect(await act("assign_cost_to_site", { cost_id: hosting.id, site_id: two.id })).toMatchObject({ site_ids: [one.id, two.id].sort((a, b) => a - b), per_site_monthly_share: 12.5 });
    expect(await act("assign_cost_to_site", { cost_id: hosting.id, site_id: two.id })).toMatchObject({ per_site_monthly_share: 12.5 });
    await act("assign_cost_to_site", { cost_id: cdn.id, site_id: one.id });
    const detail = await act("get_site", { id: one.id });
    expect(detail.costs.map((cost: { id: number }) => cost.id).sort()).toEqual([hosting.id, cdn.id].sort());
    expect(detail.monthly_total).toEqual([{ currency: "EUR", amount: 22.49 }]);

    expect((await act("get_costs", { vendor: `Vendor ${RUN}` })).total).toBe(2);
    expect((await act("get_costs", { site_id: two.id })).costs.map((cost: { id: number }) => cost.id)).toEqual([hosting.id]);
    expect(await act("remove_cost_from_site", { cost_id: hosting.id, site_id: two.id })).toMatchObject({ site_ids: [one.id], per_site_monthly_share: 25 });
    expect(await act("update_cost", { id: cdn.id, amount: "120", cycle: "yearly" })).toMatchObject({ monthly_amount: 10 });
    expect(await act("get_cost", { id: cdn.id })).toMatchObject({ name: "CDN", site_ids: [one.id] });
    expect(await act("delete_cost", { id: cdn.id })).toEqual({ deleted: true, id: cdn.id });
    expect((await act("get_site", { id: one.id })).monthly_total).toEqual([{ currency: "EUR", amount: 25 }]);
  });

  it("adds licenses with encrypted keys, maps them to costs, filters them, and updates and deletes them", async () => {
    const cost = await act("add_cost", { name: "Forms", vendor: `Licenses ${RUN}`, amount: 259, currency: "USD", cycle: "yearly" });
    const soon = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10);
    const license = await act("add_license", { product: `Gravity Forms ${RUN}`, license_key: "GF-SECRET-KEY-1", seats: "10", expires_on: soon });
    expect(license).toMatchObject({ license_key_set: true, seats: 10, expires_on: soon, cost: null, days_left: 9 });
    expect(JSON.stringify(license)).not.toContain("GF-SECRET");
    expect((await api.ctx.prisma.license.findUniqueOrThrow({ where: { id: license.id } })).license_key).not.toContain("GF-SECRET");

    expect((await act("get_licenses", { search: RUN, unmapped: "1" })).licenses.map((l: { id: number }) => l.id)).toEqual([license.id]);
    expect(await act("map_license", { license_id: license.id, cost_id: cost.id })).toMatchObject({ cost: { id: cost.id, name: "Forms", vendor: `Licenses ${RUN}` } });
    expect((await act("get_licenses", { search: RUN, unmapped: "1" })).total).toBe(0);
    expect((await act("get_licenses", { cost_id: cost.id })).total).toBe(1);
    expect((await act("get_licenses", { search: RUN, expiring_days: 30 })).total).toBe(1);
    expect((await act("get_licenses", { search: RUN, expiring_days: 5 })).total).toBe(0);
    expect(await post({ action: "map_license", license_id: license.id, cost_id: 2_000_000_000 })).toMatchObject({ status: 404 });
    expect(await act("map_license", { license_id: license.id, cost_id: "" })).toMatchObject({ cost: null });
    expect(await act("update_license", { id: license.id, seats: 25, license_key: "" })).toMatchObject({ seats: 25, license_key_set: false });
    expect(await act("delete_license", { id: license.id })).toEqual({ deleted: true, id: license.id });
    expect((await act("get_licenses", { search: RUN })).total).toBe(0);
  });
});

describe("exports, the summary report and get_job (spec 2, 4.4 Reports; design 10.8)", () => {
  let worker: InProcessWorker;

  beforeAll(async () => {
    worker = await startInProcessWorker({ WORKER_QUEUES: "reports", STORAGE_DIR: storage });
    await worker.waitFor(logged("workers started"));
  });

  afterAll(async () => {
    await worker?.stop();
  });

  it("exports sites and plugins as CSV with formulas neutralised, as {filename, csv} or as the file", async () => {
    const added = await act("add_site", site("export", { name: `=HYPERLINK("evil") ${RUN}`, client: `Export ${RUN}` }));
    await api.ctx.prisma.managedSite.update({
      where: { id: added.id },
      data: { plugins: [{ plugin: "akismet/akismet", name: "@Akismet", version: "5.3", active: true, update_available: true }] },
    });
    const sites = await act("export_sites");
    expect(sites.filename).toMatch(/^sites-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(sites.csv.split("\n")[0]).toBe("id,name,url,client,status,hosting,plugins,plugin_updates,ssl_expires_at,synced_at");
    expect(sites.csv).toContain(`${added.id},"'=HYPERLINK(""evil"") ${RUN}",https://export-${RUN}.example,Export ${RUN},active,,1,1,,`);

    const plugins = await post({ action: "export_plugins", download: "1" });
    expect(plugins.status).toBe(200);
    expect(plugins.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(plugins.headers.get("content-disposition")).toMatch(/^attachment; filename="plugins-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(plugins.text).toContain(`${added.id},"'=HYPERLINK(""evil"") ${RUN}",https://export-${RUN}.example,akismet/akismet,'@Akismet,5.3,1,1`);
  });

  it("reads the exported sites a batch at a time in name then id order, and streams the file with the same bytes as {filename, csv}", async () => {
    // Two sites share a name: the batch boundary falls between them, which the (name, id) keyset must not skip or repeat.
    for (const suffix of ["batch-c", "batch-a1", "batch-a2", "batch-b"]) await act("add_site", site(suffix, { name: `Batch ${suffix.startsWith("batch-a") ? "a" : suffix} ${RUN}` }));
    const batches = [];
    for await (const batch of managedSitesForExport({ replica: api.ctx.prisma }, "all", 2)) batches.push(batch);
    expect(batches.slice(0, -1).every((batch) => batch.length === 2)).toBe(true);
    const ours = batches.flat().filter((row) => row.name.endsWith(` ${RUN}`) && row.name.startsWith("Batch "));
    expect(ours.map((row) => row.url)).toEqual([`https://batch-a1-${RUN}.example`, `https://batch-a2-${RUN}.example`, `https://batch-b-${RUN}.example`, `https://batch-c-${RUN}.example`]);

    const json = await act("export_sites", { status: "all" });
    const file = await post({ action: "export_sites", status: "all", download: "1" });
    expect(file.text).toBe(json.csv);
  });

  it("queues the dashboard summary, shows its job's progress and result, and gives its CSV by job id", async () => {
    const client = `Summary ${RUN}`;
    const one = await act("add_site", site("sum-one", { client }));
    const two = await act("add_site", site("sum-two", { client }));
    await api.ctx.prisma.managedSite.update({ where: { id: two.id }, data: { ssl_expires_at: new Date(Date.now() + 3 * 86_400_000) } });
    const cost = await act("add_cost", { name: "Plan", vendor: `Summary vendor ${RUN}`, amount: 120, currency: "CHF", cycle: "yearly" });
    await act("assign_cost_to_site", { cost_id: cost.id, site_id: one.id });
    await act("assign_cost_to_site", { cost_id: cost.id, site_id: two.id });
    await act("add_license", { product: `Summary product ${RUN}`, expires_on: new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10) });

    const queued = await act("generate_report");
    expect(queued.job_id).toMatch(/^reports:/);
    let job: Json;
    await until(async () => {
      job = await act("get_job", { job_id: queued.job_id });
      return job.state === "completed" || job.state === "failed";
    }, () => `the report job to finish; worker output:\n${worker.output()}`);
    expect(job).toMatchObject({ state: "completed", name: "dashboard-summary", failed_reason: null, file: { content_type: "text/csv; charset=utf-8" }, progress: { done: 3, total: 3 } });

    const file = await post({ action: "get_job", job_id: queued.job_id, download: 1 });
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const lines = file.text.split("\n");
    expect(lines[0]).toBe("section,name,currency,value");
    expect(lines).toContain(`monthly_cost_by_vendor,Summary vendor ${RUN},CHF,10.00`);
    expect(lines).toContain(`monthly_cost_by_client,Summary ${RUN},CHF,10.00`);
    expect(lines).toContain(`ssl_expiring,https://sum-two-${RUN}.example,,${new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10)}`);
    expect(lines.some((line) => line.startsWith(`license_expiring,Summary product ${RUN},,`))).toBe(true);
    expect(lines.find((line) => line.startsWith("sites_by_status,active,,"))).toBeDefined();

    expect(await post({ action: "get_job", job_id: "reports:no-such-job" })).toMatchObject({ status: 404, body: { success: false } });
    expect(await post({ action: "get_job", job_id: "nowhere:1" })).toMatchObject({ status: 404 });
  });
});

describe("AI actions (spec 2, 4.4)", () => {
  it("scores a sample ticket, rewrites text and clears the urgency cache through the AI service", async () => {
    const ticket = { subject: "Checkout is down", body: "Production is down: no customer can pay, we are losing revenue.", client_name: "ACME", is_vip: "1" };
    const first = await act("test_ticket_urgency", ticket);
    expect(first).toMatchObject({ engine: "rules", cached: false, urgency: { score: expect.any(Number), level: expect.stringMatching(/^(CRITICAL|HIGH|MEDIUM|LOW)$/), suggested_title: expect.any(String) } });
    expect(await act("test_ticket_urgency", ticket)).toMatchObject({ cached: true });
    expect((await act("ai_clear_cache")).cleared).toBeGreaterThanOrEqual(1);
    expect(await act("test_ticket_urgency", ticket)).toMatchObject({ cached: false });
    expect(await act("ai_rewrite", { text: "hello   world ,thanks" })).toEqual({ engine: "rules", rewritten_text: "Hello world, thanks" });
    expect((await post({ action: "test_ticket_urgency", subject: "x" })).body).toEqual({ success: false, data: "body: is required" });
  });
});

describe("who may call (design 10.1)", () => {
  it("takes an application password over HTTP Basic without a nonce", async () => {
    const user = await createUser(api.ctx, { login: uniqueLogin("script"), capabilities: ["manage_options"] });
    expect(await post({ action: "get_costs" }, { authorization: basicAuth(user.login, user.application_password) })).toMatchObject({ status: 200, body: { success: true } });
  });
});
