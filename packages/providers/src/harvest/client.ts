import type { Config } from "@mw/platform/config";
import { type RedisClient, SharedRateLimiter } from "@mw/platform/redis";
import { createHttpClient, parseUpstream, rateLimitedCall, retryAfterMs, type UpstreamDetailReader } from "@mw/platform/http";
import { z } from "zod";
import {
  accountsAnswer,
  clientRecord,
  projectRecord,
  taskAssignmentRecord,
  taskRecord,
  timeEntryRecord,
  tokenAnswer,
  userAssignmentRecord,
  userRecord,
  type HarvestClientRecord,
  type HarvestProject,
  type HarvestTaskAssignment,
  type HarvestTimeEntry,
  type HarvestTokens,
} from "./types.ts";

/** Harvest's general API limit (contract sheet, section 1): 100 requests per 15 s per account. */
export const HARVEST_LIMIT = { requests: 100, windowMs: 15_000 } as const;
/**
 * Counted over a slightly longer window than Harvest's: a call admitted here
 * reaches Harvest a few ms later, and without the margin the hundred-and-first
 * could arrive before the first has left Harvest's own window.
 */
const WINDOW_MARGIN_MS = 1_000;
/** The most one call waits on 429 answers before it fails (retryable) instead. */
const MAX_429_WAIT_MS = 30_000;
/** Harvest's largest page. */
const PER_PAGE = 2000;

/** Who a call acts as: a staff member's OAuth token or the sync token, and the account it goes to. */
export interface HarvestAuth {
  accessToken: string;
  accountId: string | number;
}

export type HarvestConfig = Pick<Config, "HARVEST_ID_URL" | "HARVEST_API_URL" | "HTTP_TIMEOUT_MS" | "QUEUE_PREFIX">;

/** Harvest's error bodies: `{code, message}` from the API, `{error, error_description}` from OAuth. */
const harvestDetail: UpstreamDetailReader = (body) => {
  const parsed = z.object({ message: z.string().optional(), error: z.string().optional(), error_description: z.string().optional() }).safeParse(body);
  if (!parsed.success) return undefined;
  const reason = parsed.data.message ?? [parsed.data.error, parsed.data.error_description].filter(Boolean).join(": ");
  return reason ? { reason } : undefined;
};

const pageLinks = z.looseObject({ links: z.object({ next: z.string().nullish() }).nullish() });

export type TimeEntryFilters = Partial<Record<"user_id" | "client_id" | "project_id" | "task_id" | "is_running" | "updated_since" | "from" | "to", string | number | boolean>>;

/**
 * Harvest v2 (design 10.4): OAuth on HARVEST_ID_URL, the API on
 * HARVEST_API_URL, every call with the account header and the
 * `User-Agent: App (contact)` Harvest requires. All calls for an account
 * share one Redis limiter across processes, and a 429 is waited out per its
 * `Retry-After` (bounded). Lists follow `links.next` to the end.
 */
export class HarvestClient {
  private readonly http;
  private readonly limiter: SharedRateLimiter;

  /** `limit` is Harvest's own but for a test of the limiter, which would otherwise wait out 15 s windows. */
  constructor(
    private readonly config: HarvestConfig,
    redis: RedisClient,
    userAgent: string,
    limit: { requests: number; windowMs: number } = HARVEST_LIMIT,
  ) {
    this.http = createHttpClient({ timeoutMs: config.HTTP_TIMEOUT_MS, headers: { "user-agent": userAgent } });
    this.limiter = new SharedRateLimiter(redis, `${config.QUEUE_PREFIX}:harvest:rate`, limit.requests, limit.windowMs + WINDOW_MARGIN_MS);
  }

  private apiUrl(path: string): string {
    return `${this.config.HARVEST_API_URL.replace(/\/$/, "")}/v2/${path}`;
  }

  /** The staff member's browser goes here to allow access; Harvest sends it back to `redirectUri` with `code` and `state`. */
  authorizeUrl(input: { clientId: string; redirectUri: string; state: string }): string {
    const url = new URL("/oauth2/authorize", this.config.HARVEST_ID_URL);
    url.search = new URLSearchParams({ client_id: input.clientId, response_type: "code", state: input.state, redirect_uri: input.redirectUri }).toString();
    return url.toString();
  }

  private async token(form: Record<string, string>): Promise<HarvestTokens> {
    const url = new URL("/api/v2/oauth2/token", this.config.HARVEST_ID_URL).toString();
    const body = await rateLimitedCall("Harvest OAuth", () => this.http.post(url, { json: form }).json(), { waitMs: (response) => retryAfterMs(response.headers["retry-after"]), maxWaitMs: MAX_429_WAIT_MS }, harvestDetail);
    return parseUpstream("Harvest OAuth", "oauth2/token", tokenAnswer, body);
  }

  exchangeCode(input: { clientId: string; clientSecret: string; code: string }): Promise<HarvestTokens> {
    return this.token({ code: input.code, client_id: input.clientId, client_secret: input.clientSecret, grant_type: "authorization_code" });
  }

  refresh(input: { clientId: string; clientSecret: string; refreshToken: string }): Promise<HarvestTokens> {
    return this.token({ refresh_token: input.refreshToken, client_id: input.clientId, client_secret: input.clientSecret, grant_type: "refresh_token" });
  }

  /** The token's user and the accounts it reaches. */
  async accounts(accessToken: string) {
    const url = new URL("/api/v2/accounts", this.config.HARVEST_ID_URL).toString();
    const body = await rateLimitedCall("Harvest OAuth", () => this.http.get(url, { headers: { authorization: `Bearer ${accessToken}` } }).json(), { waitMs: (response) => retryAfterMs(response.headers["retry-after"]), maxWaitMs: MAX_429_WAIT_MS }, harvestDetail);
    return parseUpstream("Harvest OAuth", "accounts", accountsAnswer, body);
  }

  /** One API call: a slot of the account's limiter for each attempt, waiting out 429s (another app may share the account). */
  private async call<S extends z.ZodType>(auth: HarvestAuth, method: "get" | "post" | "patch" | "delete", url: string, schema: S, json?: unknown): Promise<z.output<S>> {
    const headers = { authorization: `Bearer ${auth.accessToken}`, "harvest-account-id": String(auth.accountId) };
    const body = await rateLimitedCall(
      "Harvest",
      // DELETE answers with no body.
      async () => {
        await this.limiter.acquire(String(auth.accountId));
        const text = await this.http(url, { method: method.toUpperCase() as "GET", headers, ...(json !== undefined && { json }) }).text();
        return text ? (JSON.parse(text) as unknown) : null;
      },
      { waitMs: (response) => retryAfterMs(response.headers["retry-after"]), maxWaitMs: MAX_429_WAIT_MS },
      harvestDetail,
    );
    return parseUpstream("Harvest", new URL(url).pathname, schema, body);
  }

  /** Every record of a list, page by page (`links.next`, cursor or page numbers, whichever Harvest gives). */
  private async *list<S extends z.ZodType>(auth: HarvestAuth, path: string, key: string, record: S, query: Record<string, string | number | boolean | undefined> = {}): AsyncGenerator<z.output<S>[]> {
    const search = new URLSearchParams({ per_page: String(PER_PAGE) });
    for (const [name, value] of Object.entries(query)) if (value !== undefined) search.set(name, String(value));
    let url: string | null = `${this.apiUrl(path)}?${search.toString()}`;
    while (url) {
      const body: z.output<typeof pageLinks> = await this.call(auth, "get", url, pageLinks);
      yield parseUpstream("Harvest", path, z.array(record), body[key]);
      url = body.links?.next ?? null;
    }
  }

  private async all<T>(pages: AsyncGenerator<T[]>): Promise<T[]> {
    const records: T[] = [];
    for await (const batch of pages) records.push(...batch);
    return records;
  }

  me(auth: HarvestAuth) {
    return this.call(auth, "get", this.apiUrl("users/me"), userRecord);
  }

  clients(auth: HarvestAuth, query: { is_active?: boolean; updated_since?: string } = {}): Promise<HarvestClientRecord[]> {
    return this.all(this.list(auth, "clients", "clients", clientRecord, query));
  }

  createClient(auth: HarvestAuth, input: { name: string }): Promise<HarvestClientRecord> {
    return this.call(auth, "post", this.apiUrl("clients"), clientRecord, input);
  }

  projectPages(auth: HarvestAuth, query: { is_active?: boolean; client_id?: number; updated_since?: string } = {}) {
    return this.list(auth, "projects", "projects", projectRecord, query);
  }

  projects(auth: HarvestAuth, query: { is_active?: boolean; client_id?: number; updated_since?: string } = {}): Promise<HarvestProject[]> {
    return this.all(this.projectPages(auth, query));
  }

  project(auth: HarvestAuth, projectId: number): Promise<HarvestProject> {
    return this.call(auth, "get", this.apiUrl(`projects/${projectId}`), projectRecord);
  }

  createProject(auth: HarvestAuth, input: { client_id: number; name: string; is_billable: boolean; bill_by: string; budget_by: string; budget?: number | null }): Promise<HarvestProject> {
    return this.call(auth, "post", this.apiUrl("projects"), projectRecord, input);
  }

  /** Who works on a project, and who manages it (`is_project_manager`). */
  userAssignments(auth: HarvestAuth, projectId: number) {
    return this.all(this.list(auth, `projects/${projectId}/user_assignments`, "user_assignments", userAssignmentRecord, { is_active: true }));
  }

  user(auth: HarvestAuth, userId: number) {
    return this.call(auth, "get", this.apiUrl(`users/${userId}`), userRecord);
  }

  tasks(auth: HarvestAuth) {
    return this.all(this.list(auth, "tasks", "tasks", taskRecord));
  }

  taskAssignments(auth: HarvestAuth, projectId: number, query: { is_active?: boolean } = {}): Promise<HarvestTaskAssignment[]> {
    return this.all(this.list(auth, `projects/${projectId}/task_assignments`, "task_assignments", taskAssignmentRecord, query));
  }

  timeEntryPages(auth: HarvestAuth, filters: TimeEntryFilters = {}) {
    return this.list(auth, "time_entries", "time_entries", timeEntryRecord, filters);
  }

  timeEntries(auth: HarvestAuth, filters: TimeEntryFilters = {}): Promise<HarvestTimeEntry[]> {
    return this.all(this.timeEntryPages(auth, filters));
  }

  timeEntry(auth: HarvestAuth, entryId: number): Promise<HarvestTimeEntry> {
    return this.call(auth, "get", this.apiUrl(`time_entries/${entryId}`), timeEntryRecord);
  }

  /** Without `hours` Harvest starts a running timer; with them the entry is complete. */
  createTimeEntry(auth: HarvestAuth, input: { project_id: number; task_id: number; spent_date: string; hours?: number; notes?: string; user_id?: number }): Promise<HarvestTimeEntry> {
    return this.call(auth, "post", this.apiUrl("time_entries"), timeEntryRecord, input);
  }

  updateTimeEntry(auth: HarvestAuth, entryId: number, input: { notes?: string; hours?: number; task_id?: number }): Promise<HarvestTimeEntry> {
    return this.call(auth, "patch", this.apiUrl(`time_entries/${entryId}`), timeEntryRecord, input);
  }

  stopTimeEntry(auth: HarvestAuth, entryId: number): Promise<HarvestTimeEntry> {
    return this.call(auth, "patch", this.apiUrl(`time_entries/${entryId}/stop`), timeEntryRecord);
  }

  restartTimeEntry(auth: HarvestAuth, entryId: number): Promise<HarvestTimeEntry> {
    return this.call(auth, "patch", this.apiUrl(`time_entries/${entryId}/restart`), timeEntryRecord);
  }

  async deleteTimeEntry(auth: HarvestAuth, entryId: number): Promise<void> {
    await this.call(auth, "delete", this.apiUrl(`time_entries/${entryId}`), z.unknown());
  }
}
