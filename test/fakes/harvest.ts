import { randomBytes } from "node:crypto";
import { FakeServer, type FakeAnswer, type FakeReply, type FakeRequest } from "./fake-server.ts";

interface Ref {
  id: number;
  name: string;
}

export interface FakeHarvestUser {
  id: number;
  first_name: string;
  last_name: string;
  email: string;
}

export interface FakeProject {
  id: number;
  name: string;
  code: string | null;
  client: Ref | null;
  is_active: boolean;
  budget: number | null;
  budget_by: string;
  bill_by: string;
  is_billable: boolean;
  updated_at: string;
}

export interface FakeTimeEntry {
  id: number;
  spent_date: string;
  hours: number;
  notes: string | null;
  is_running: boolean;
  user: Ref;
  project: Ref;
  task: Ref;
  client: Ref | null;
  created_at: string;
  updated_at: string;
}

interface Token {
  user: FakeHarvestUser;
  expiresAt: number;
}

const now = () => new Date().toISOString();

/**
 * Harvest v2 (contract sheet, section 1) on 127.0.0.1, both hosts in one:
 * the OAuth host (`/oauth2/authorize` is the browser's; `POST
 * /api/v2/oauth2/token`, `GET /api/v2/accounts`) and the API under `/v2`.
 * It keeps state (clients, projects, tasks, task assignments, time entries),
 * pages lists with `links.next` cursors (or `page`), checks the Bearer token,
 * the `Harvest-Account-Id` and the `User-Agent` (400 without), enforces
 * `rateLimit` per account with 429 + `Retry-After`, and refuses stopping a
 * stopped entry (422). Tests read `requests` to count calls per window.
 */
export class FakeHarvest extends FakeServer {
  readonly accountId = 424242;
  readonly clientId = "harvest-client-id";
  readonly clientSecret = "harvest-client-secret";
  /** Requests per window per account; tests may narrow it. */
  rateLimit = { requests: 100, windowMs: 15_000 };
  /** Lifetime of issued access tokens, in seconds. */
  tokenLifetime = 14 * 24 * 3600;
  readonly users: FakeHarvestUser[] = [{ id: 1001, first_name: "Sam", last_name: "Staff", email: "sam@agency.example" }];
  readonly clients: (Ref & { is_active: boolean })[] = [];
  readonly projects: FakeProject[] = [];
  readonly tasks: (Ref & { is_active: boolean; is_default: boolean })[] = [
    { id: 501, name: "Support", is_active: true, is_default: true },
    { id: 502, name: "Development", is_active: true, is_default: false },
  ];
  readonly assignments = new Map<number, { id: number; task: Ref; is_active: boolean; billable: boolean; budget: number | null }[]>();
  readonly entries: FakeTimeEntry[] = [];
  /** Project id → its people; `is_project_manager` marks the managers. */
  readonly userAssignments = new Map<number, { id: number; is_project_manager: boolean; is_active: boolean; user: Ref }[]>();
  /** Codes the authorize page would have issued: code → user. */
  readonly codes = new Map<string, FakeHarvestUser>();
  readonly accessTokens = new Map<string, Token>();
  readonly refreshTokens = new Map<string, FakeHarvestUser>();
  /** Token endpoint calls by grant type, e.g. to prove a refresh happened once. */
  readonly grants: string[] = [];
  private readonly hits = new Map<string, number[]>();
  /** When each admitted API request arrived. */
  readonly admitted: number[] = [];
  /** API requests answered 429. */
  refused = 0;
  /** Ids of a fake start at a random base: test files sharing a database never see the same project or entry id twice. */
  private nextId = 10_000 + Math.floor(Math.random() * 1_000_000) * 1_000;

  constructor() {
    super();
    this.route("POST", "/api/v2/oauth2/token", (request) => this.token(request));
    this.route("GET", "/oauth2/authorize", (request) => this.authorize(request));
    this.route("GET", "/api/v2/accounts", (request) => this.withToken(request, (user) => this.json(200, { user, accounts: [{ id: this.accountId, name: "Agency", product: "harvest" }] })));
    this.route("GET", "/v2/users/me", (request) => this.api(request, (user) => this.json(200, { ...user, is_active: true })));
    this.route("GET", "/v2/clients", (request) => this.api(request, () => this.list(request, "clients", this.clients)));
    this.route("POST", "/v2/clients", (request) => this.api(request, () => this.createClient(request)));
    this.route("GET", "/v2/projects", (request) => this.api(request, () => this.list(request, "projects", this.filterProjects(request))));
    this.route("POST", "/v2/projects", (request) => this.api(request, () => this.createProject(request)));
    this.route("GET", "/v2/projects/:id", (request, params) => this.api(request, () => this.one(this.projects.find((project) => project.id === Number(params.id)))));
    this.route("GET", "/v2/projects/:id/task_assignments", (request, params) => this.api(request, () => this.list(request, "task_assignments", this.assignments.get(Number(params.id)) ?? [])));
    this.route("GET", "/v2/tasks", (request) => this.api(request, () => this.list(request, "tasks", this.tasks)));
    this.route("GET", "/v2/projects/:id/user_assignments", (request, params) => this.api(request, () => this.list(request, "user_assignments", this.userAssignments.get(Number(params.id)) ?? [])));
    this.route("GET", "/v2/users/:id", (request, params) => this.api(request, () => this.one(this.users.find((user) => user.id === Number(params.id)))));
    this.route("GET", "/v2/time_entries", (request) => this.api(request, () => this.list(request, "time_entries", this.filterEntries(request))));
    this.route("POST", "/v2/time_entries", (request) => this.api(request, (user) => this.createEntry(request, user)));
    this.route("GET", "/v2/time_entries/:id", (request, params) => this.api(request, () => this.one(this.entry(Number(params.id)))));
    this.route("PATCH", "/v2/time_entries/:id/stop", (request, params) => this.api(request, () => this.stopEntry(Number(params.id))));
    this.route("PATCH", "/v2/time_entries/:id/restart", (request, params) => this.api(request, () => this.restartEntry(Number(params.id))));
    this.route("PATCH", "/v2/time_entries/:id", (request, params) => this.api(request, () => this.updateEntry(request, Number(params.id))));
    this.route("DELETE", "/v2/time_entries/:id", (request, params) => this.api(request, () => this.deleteEntry(Number(params.id))));
  }

  /** The browser's authorize page, as if the first user allowed access at once: back to `redirect_uri` with a code. */
  private authorize(request: FakeRequest): FakeReply {
    const redirect = request.query.get("redirect_uri");
    if (request.query.get("client_id") !== this.clientId || !redirect) return this.json(400, { error: "invalid_request" });
    const back = new URL(redirect);
    back.search = new URLSearchParams({ code: this.issueCode(), state: request.query.get("state") ?? "", scope: `harvest:${this.accountId}` }).toString();
    return { status: 302, headers: { location: back.toString() } };
  }

  /** What the authorize page does when the user allows access: a code for the redirect. */
  issueCode(user = this.users[0]!): string {
    const code = randomBytes(12).toString("hex");
    this.codes.set(code, user);
    return code;
  }

  /** A personal access token (the sync credentials). */
  personalToken(user = this.users[0]!): string {
    const token = `pat-${randomBytes(12).toString("hex")}`;
    this.accessTokens.set(token, { user, expiresAt: Number.POSITIVE_INFINITY });
    return token;
  }

  addProject(input: Partial<FakeProject> & { name: string }): FakeProject {
    const project: FakeProject = { id: this.id(), code: null, client: null, is_active: true, budget: null, budget_by: "project", bill_by: "Project", is_billable: true, updated_at: now(), ...input };
    this.projects.push(project);
    this.assignments.set(project.id, this.tasks.map((task) => ({ id: this.id(), task: { id: task.id, name: task.name }, is_active: true, billable: true, budget: null })));
    return project;
  }

  /** Makes `user` a (managing) member of the project. */
  assignUser(project: FakeProject, user: FakeHarvestUser, isProjectManager: boolean): void {
    const list = this.userAssignments.get(project.id) ?? [];
    list.push({ id: this.id(), is_project_manager: isProjectManager, is_active: true, user: { id: user.id, name: `${user.first_name} ${user.last_name}` } });
    this.userAssignments.set(project.id, list);
  }

  addEntry(project: FakeProject, input: Partial<FakeTimeEntry> = {}): FakeTimeEntry {
    const user = this.users[0]!;
    const task = this.tasks[0]!;
    const entry: FakeTimeEntry = {
      id: this.id(),
      spent_date: now().slice(0, 10),
      hours: 1,
      notes: null,
      is_running: false,
      user: { id: user.id, name: `${user.first_name} ${user.last_name}` },
      project: { id: project.id, name: project.name },
      task: { id: task.id, name: task.name },
      client: project.client,
      created_at: now(),
      updated_at: now(),
      ...input,
    };
    this.entries.push(entry);
    return entry;
  }

  private id(): number {
    this.nextId += 1;
    return this.nextId;
  }

  private error(status: number, message: string, headers: Record<string, string> = {}): FakeAnswer {
    return this.json(status, { code: status, message }, headers);
  }

  private body(request: FakeRequest): Record<string, unknown> {
    if (!request.body) return {};
    if (String(request.headers["content-type"]).includes("application/json")) return JSON.parse(request.body) as Record<string, unknown>;
    return Object.fromEntries(new URLSearchParams(request.body));
  }

  private issueTokens(user: FakeHarvestUser): FakeAnswer {
    const access = `at-${randomBytes(12).toString("hex")}`;
    const refresh = `rt-${randomBytes(12).toString("hex")}`;
    this.accessTokens.set(access, { user, expiresAt: Date.now() + this.tokenLifetime * 1000 });
    this.refreshTokens.set(refresh, user);
    return this.json(200, { access_token: access, refresh_token: refresh, token_type: "bearer", expires_in: this.tokenLifetime });
  }

  private token(request: FakeRequest): FakeAnswer {
    const form = this.body(request);
    this.grants.push(String(form.grant_type));
    if (form.client_id !== this.clientId || form.client_secret !== this.clientSecret) return this.json(401, { error: "invalid_client", error_description: "Client authentication failed." });
    if (form.grant_type === "authorization_code") {
      const user = this.codes.get(String(form.code));
      if (!user) return this.json(400, { error: "invalid_grant", error_description: "The authorization code is invalid or expired." });
      this.codes.delete(String(form.code));
      return this.issueTokens(user);
    }
    if (form.grant_type === "refresh_token") {
      const user = this.refreshTokens.get(String(form.refresh_token));
      if (!user) return this.json(400, { error: "invalid_grant", error_description: "The refresh token is invalid." });
      // Harvest rotates refresh tokens: the old one is spent.
      this.refreshTokens.delete(String(form.refresh_token));
      return this.issueTokens(user);
    }
    return this.json(400, { error: "unsupported_grant_type", error_description: "grant_type must be authorization_code or refresh_token." });
  }

  private withToken(request: FakeRequest, then: (user: FakeHarvestUser) => FakeAnswer): FakeAnswer {
    const bearer = String(request.headers.authorization ?? "").replace(/^Bearer /, "");
    const token = this.accessTokens.get(bearer);
    if (!token || token.expiresAt < Date.now()) return this.json(401, { error: "invalid_token", error_description: "The access token provided is expired, revoked, malformed or invalid." });
    return then(token.user);
  }

  /** The API's gate: User-Agent, token, account header, then the account's rate limit. */
  private api(request: FakeRequest, then: (user: FakeHarvestUser) => FakeAnswer): FakeAnswer {
    if (!request.headers["user-agent"]) return this.error(400, "User-Agent header is required");
    return this.withToken(request, (user) => {
      const account = String(request.headers["harvest-account-id"] ?? "");
      if (account !== String(this.accountId)) return this.error(403, "You do not have access to this account");
      const windowStart = Date.now() - this.rateLimit.windowMs;
      const hits = (this.hits.get(account) ?? []).filter((at) => at > windowStart);
      if (hits.length >= this.rateLimit.requests) {
        this.hits.set(account, hits);
        const retryAfter = Math.max(1, Math.ceil((hits[0]! + this.rateLimit.windowMs - Date.now()) / 1000));
        this.refused += 1;
        return this.error(429, "Too many requests", { "retry-after": String(retryAfter) });
      }
      hits.push(Date.now());
      this.hits.set(account, hits);
      this.admitted.push(Date.now());
      return then(user);
    });
  }

  /** The most API requests admitted within any one window, for the limiter tests. */
  busiestWindow(windowMs = this.rateLimit.windowMs): number {
    const times = this.admitted;
    let most = 0;
    for (let i = 0, j = 0; j < times.length; j += 1) {
      while (times[j]! - times[i]! >= windowMs) i += 1;
      most = Math.max(most, j - i + 1);
    }
    return most;
  }

  private list(request: FakeRequest, key: string, records: unknown[]): FakeAnswer {
    const perPage = Number(request.query.get("per_page") ?? 2000);
    if (perPage > 2000 || perPage < 1) return this.error(422, "per_page must be between 1 and 2000");
    const cursor = request.query.get("cursor");
    const start = cursor ? Number(Buffer.from(cursor, "base64url").toString()) : (Number(request.query.get("page") ?? 1) - 1) * perPage;
    const slice = records.slice(start, start + perPage);
    const totalPages = Math.max(1, Math.ceil(records.length / perPage));
    const more = start + perPage < records.length;
    const params = new URLSearchParams(request.query);
    params.delete("page");
    params.set("cursor", Buffer.from(String(start + perPage)).toString("base64url"));
    params.set("ref", "next_cursor");
    const next = more ? `${this.url}${request.path}?${params.toString()}` : null;
    const page = Math.floor(start / perPage) + 1;
    return this.json(200, {
      [key]: slice,
      per_page: perPage,
      total_pages: totalPages,
      total_entries: records.length,
      next_page: more ? page + 1 : null,
      previous_page: page > 1 ? page - 1 : null,
      page,
      links: { first: `${this.url}${request.path}?page=1&per_page=${perPage}`, next, previous: null, last: `${this.url}${request.path}?page=${totalPages}&per_page=${perPage}` },
    });
  }

  private one(record: unknown): FakeAnswer {
    return record ? this.json(200, record) : this.error(404, "Not found");
  }

  private filterProjects(request: FakeRequest): FakeProject[] {
    const active = request.query.get("is_active");
    const client = request.query.get("client_id");
    return this.projects.filter((project) => (active === null || String(project.is_active) === active) && (client === null || project.client?.id === Number(client)));
  }

  private filterEntries(request: FakeRequest): FakeTimeEntry[] {
    const q = request.query;
    return this.entries.filter(
      (entry) =>
        (!q.get("project_id") || entry.project.id === Number(q.get("project_id"))) &&
        (!q.get("user_id") || entry.user.id === Number(q.get("user_id"))) &&
        (!q.get("task_id") || entry.task.id === Number(q.get("task_id"))) &&
        (!q.get("is_running") || String(entry.is_running) === q.get("is_running")) &&
        (!q.get("from") || entry.spent_date >= q.get("from")!) &&
        (!q.get("to") || entry.spent_date <= q.get("to")!) &&
        (!q.get("updated_since") || entry.updated_at >= q.get("updated_since")!),
    );
  }

  private createClient(request: FakeRequest): FakeAnswer {
    const body = this.body(request);
    if (typeof body.name !== "string" || !body.name) return this.error(422, "Name can't be blank");
    if (this.clients.some((client) => client.name === body.name)) return this.error(422, "Name has already been taken");
    const client = { id: this.id(), name: body.name, is_active: true };
    this.clients.push(client);
    return this.json(201, client);
  }

  private createProject(request: FakeRequest): FakeAnswer {
    const body = this.body(request);
    const client = this.clients.find((candidate) => candidate.id === Number(body.client_id));
    if (!client) return this.error(422, "Client can't be blank");
    if (typeof body.name !== "string" || !body.name) return this.error(422, "Name can't be blank");
    const project = this.addProject({ name: body.name, client: { id: client.id, name: client.name }, budget: typeof body.budget === "number" ? body.budget : null, budget_by: String(body.budget_by ?? "none"), bill_by: String(body.bill_by ?? "none"), is_billable: body.is_billable !== false });
    return this.json(201, project);
  }

  private createEntry(request: FakeRequest, user: FakeHarvestUser): FakeAnswer {
    const body = this.body(request);
    const project = this.projects.find((candidate) => candidate.id === Number(body.project_id));
    const task = this.tasks.find((candidate) => candidate.id === Number(body.task_id));
    if (!project || !task) return this.error(422, "Project or task can't be blank");
    if (typeof body.spent_date !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(body.spent_date)) return this.error(422, "Spent date can't be blank");
    const running = body.hours === undefined;
    const entry = this.addEntry(project, {
      spent_date: body.spent_date,
      hours: running ? 0 : Number(body.hours),
      notes: typeof body.notes === "string" ? body.notes : null,
      is_running: running,
      user: { id: user.id, name: `${user.first_name} ${user.last_name}` },
      task: { id: task.id, name: task.name },
    });
    return this.json(201, entry);
  }

  private entry(id: number): FakeTimeEntry | undefined {
    return this.entries.find((entry) => entry.id === id);
  }

  private updateEntry(request: FakeRequest, id: number): FakeAnswer {
    const entry = this.entry(id);
    if (!entry) return this.error(404, "Not found");
    const body = this.body(request);
    if (typeof body.notes === "string") entry.notes = body.notes;
    if (body.hours !== undefined) entry.hours = Number(body.hours);
    entry.updated_at = now();
    return this.json(200, entry);
  }

  private stopEntry(id: number): FakeAnswer {
    const entry = this.entry(id);
    if (!entry) return this.error(404, "Not found");
    if (!entry.is_running) return this.error(422, "Time entry is not running");
    entry.is_running = false;
    entry.hours = Math.max(entry.hours, 0.01);
    entry.updated_at = now();
    return this.json(200, { ...entry, timer_started_at: null });
  }

  private restartEntry(id: number): FakeAnswer {
    const entry = this.entry(id);
    if (!entry) return this.error(404, "Not found");
    if (entry.is_running) return this.error(422, "Time entry is already running");
    entry.is_running = true;
    entry.updated_at = now();
    return this.json(200, entry);
  }

  private deleteEntry(id: number): FakeAnswer {
    const index = this.entries.findIndex((entry) => entry.id === id);
    if (index < 0) return this.error(404, "Not found");
    this.entries.splice(index, 1);
    return { status: 200 };
  }
}
