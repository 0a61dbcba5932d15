import http, { type IncomingHttpHeaders } from "node:http";
import https from "node:https";
import got, { HTTPError, RequestError, type ExtendOptions, type Got, type Response } from "got";
import type { z } from "zod";
import { EgressGuard, egressRefusalIn, guardOfLookup, type EgressRefused } from "../egress/guard.ts";
import { AppError, errors } from "../core/errors.ts";
import { USER_AGENT } from "../core/version.ts";

export interface HttpClientOptions {
  baseUrl?: string;
  headers?: Record<string, string>;
  timeoutMs: number;
  /**
   * Set by the clients of URLs that came through the API or an option (site
   * URLs, `api_base_url`, managed sites, the vector host, documents,
   * webhooks), never for URLs from the environment: every hop, redirects
   * included, goes only to addresses the guard let through
   * (docs/security.md, "Outbound requests").
   */
  egress?: EgressGuard;
  /**
   * The environment variable `baseUrl` came from (ERP_BASE_URL, ...): a failure
   * to connect names it with the URL, so the message says what to fix.
   */
  setting?: string;
}

/**
 * Why a system from the environment cannot be called: its URL is unset. Permanent,
 * since only setting it (and restarting the worker, which reads it at start) helps.
 */
export function notConfigured(system: string, setting: string, code: string): AppError {
  return AppError.permanent(`${system} is not configured: ${setting} is unset (set it in .env or the environment and restart the worker)`, code);
}

/**
 * The one factory for outbound HTTP. Every request carries
 * `User-Agent: Middleware/<version>` and a timeout; got's own retries are off
 * because BullMQ owns retries and backoff.
 */
export function createHttpClient(options: HttpClientOptions): Got {
  const extend: ExtendOptions = {
    headers: { "user-agent": USER_AGENT, ...options.headers },
    timeout: { request: options.timeoutMs },
    retry: { limit: 0 },
  };
  if (options.baseUrl) extend.prefixUrl = options.baseUrl;
  if (options.setting) extend.context = { setting: options.setting };
  if (options.egress) Object.assign(extend, guarded(options.egress));
  return got.extend(extend);
}

/**
 * got's options for a guarded client. The agents check where HTTP/1.1
 * connects, `dnsLookup` where got's HTTP/2 connects; the hook refuses, on
 * every hop, what no lookup sees: a URL naming an address, or not http(s).
 */
function guarded(guard: EgressGuard): ExtendOptions {
  return {
    agent: guard.agents,
    dnsLookup: guard.lookup as ExtendOptions["dnsLookup"],
    hooks: { beforeRequest: [(request) => guard.checkUrl(new URL(request.url as URL | string))] },
  };
}

/** What a provider says about an error answer: `reason` is appended to the message, `data` joins the error's data. */
export interface UpstreamDetail {
  reason?: string;
  data?: Record<string, unknown>;
}

/**
 * A provider's reading of its own error answers. `body` is the response body
 * parsed as JSON (undefined when it is not JSON); `response` gives headers
 * such as `Retry-After`.
 */
export type UpstreamDetailReader = (body: unknown, response: Response) => UpstreamDetail | undefined;

/**
 * Maps a got failure to the platform error; an HTTP error answer gets its
 * upstream kind (and so its permanence) from `errors.upstream`. With `detail`, an
 * HTTP error also carries what the provider's error body says (e.g. why it
 * refused), so job failure reasons and the errors table show more than the status.
 */
export function upstreamError(system: string, error: unknown, detail?: UpstreamDetailReader): AppError {
  const refused = egressRefusalIn(error);
  if (refused) return egressRefused(system, refused);
  if (error instanceof HTTPError) return answerError(system, error.response.statusCode, detail && readDetail(detail, error.response), error);
  if (error instanceof RequestError) return connectionFailure(system, guardOfLookup(error.options?.dnsLookup), error.options?.url, error, settingOf(error.options?.context));
  return new AppError(502, "upstream_error", `${system} request failed: ${String(error)}`, {}, { cause: error });
}

function answerError(system: string, status: number, extra: UpstreamDetail | undefined, cause?: unknown): AppError {
  const message = `${system} answered HTTP ${status}${extra?.reason === undefined ? "" : `: ${extra.reason}`}`;
  return errors.upstream(status, message, { data: extra?.data, system, ...(cause !== undefined && { cause }) });
}

function unreachable(system: string, reason: string, cause: unknown): AppError {
  return new AppError(502, "upstream_unreachable", `${system} request failed: ${reason}`, {}, { cause });
}

/** The guard's refusal: permanent, since only another URL (or ALLOW_PRIVATE_URLS) changes it. */
function egressRefused(system: string, refused: EgressRefused): AppError {
  const error = new AppError(502, "egress_refused", `${system} request failed: ${refused.message} (addresses inside the network are called only with ALLOW_PRIVATE_URLS=true)`, {}, { cause: refused });
  error.permanent = true;
  return error;
}

/**
 * Failures that tell a closed port from an open one (refused, reset, timed
 * out, unreachable, something not speaking HTTP). With the guard on, the
 * answer to an entered URL says only that no HTTP answer came, so it cannot
 * be used to map ports; the code stays in the error's cause for the logs.
 */
const PORT_TELLING = /^(ECONNREFUSED|ECONNRESET|ECONNABORTED|ETIMEDOUT|EHOSTUNREACH|EHOSTDOWN|ENETUNREACH|ENETDOWN|EADDRNOTAVAIL|EPIPE|HPE_.*)$/;

/** What the common connection failures mean, for a person reading the message. */
const MEANING: Record<string, string> = {
  ECONNREFUSED: "connection refused (nothing listens there)",
  ENOTFOUND: "no such host",
  EAI_AGAIN: "the host name could not be resolved now",
  ETIMEDOUT: "no answer in time",
  ECONNRESET: "the connection was cut",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
  CERT_HAS_EXPIRED: "its TLS certificate has expired",
  DEPTH_ZERO_SELF_SIGNED_CERT: "its TLS certificate is self-signed",
};

/**
 * A request that got no answer. For a URL from the environment (`setting`) the
 * message names the URL (its origin: a path or query may hold a token) and the
 * setting, so a wrong port or a service that is down is one look away; entered
 * URLs keep the bare code, their callers say which site or option it was.
 */
function connectionFailure(system: string, guard: EgressGuard | undefined, url: unknown, error: Error & { code?: string }, setting?: string): AppError {
  const code = error.code ?? error.message;
  if (guard?.active && PORT_TELLING.test(code)) return unreachable(system, `no HTTP answer from ${hostOf(url)}`, error);
  const where = originOf(url);
  if (!setting || !where) return unreachable(system, code, error);
  const meaning = MEANING[code] ? `${code}, ${MEANING[code]}` : code;
  return unreachable(system, `${meaning} at ${where} (${setting}): check ${setting} and that the ${system} is up`, error);
}

function settingOf(context: unknown): string | undefined {
  const setting = (context as { setting?: unknown } | undefined)?.setting;
  return typeof setting === "string" ? setting : undefined;
}

function originOf(url: unknown): string | undefined {
  try {
    return new URL(url as URL | string).origin;
  } catch {
    return undefined;
  }
}

function hostOf(url: unknown): string {
  try {
    return new URL(url as URL | string).host;
  } catch {
    return "the host";
  }
}

/** Runs one request to `system`; whatever it throws is thrown as `upstreamError`. */
export async function upstreamCall<T>(system: string, request: () => Promise<T>, detail?: UpstreamDetailReader): Promise<T> {
  try {
    return await request();
  } catch (error) {
    throw upstreamError(system, error, detail);
  }
}

/** GETs `path` as JSON and checks it against `schema`; a body that does not match is an upstream error, not a crash later on. */
export async function getJson<T extends z.ZodType>(
  http: Got,
  system: string,
  path: string,
  schema: T,
  detail?: UpstreamDetailReader,
): Promise<z.output<T>> {
  const body = await upstreamCall(system, () => http.get(path).json(), detail);
  return parseUpstream(system, path, schema, body);
}

/** Checks an answer `system` gave for `path` against `schema`; a body that does not match is an upstream error. */
export function parseUpstream<T extends z.ZodType>(system: string, path: string, schema: T, body: unknown): z.output<T> {
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    throw new AppError(502, "upstream_error", `${system} answered ${path} with an unexpected body (${parsed.error.issues[0]?.path.join(".") || "root"})`);
  }
  return parsed.data;
}

/** The reader's view of an error answer; a body it cannot make sense of must not hide the upstream error itself. */
function readDetail(detail: UpstreamDetailReader, response: Response): UpstreamDetail | undefined {
  const raw = response.body;
  const body = typeof raw === "string" || Buffer.isBuffer(raw) ? jsonOrUndefined(raw.toString()) : raw;
  try {
    return detail(body, response);
  } catch {
    return undefined;
  }
}

/** `text` parsed as JSON; undefined when it is not JSON, so a schema check reports it like any unexpected body. */
export function jsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** An answer read in full by `plainRequest`. */
export interface PlainAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

const keepAliveAgents = { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) };

/**
 * One request through node:http(s) on a keep-alive agent, its answer read in
 * full as text: for the hot paths where got's own work per request shows (the
 * dispute pipeline's gateway query and fraud submission; docs/decisions.md,
 * "Dispute pipeline throughput"). The rules of createHttpClient hold: the
 * User-Agent, one timeout for the whole exchange, no retries; redirects are
 * not followed. Not reaching `system`, the timeout and an answer cut short
 * throw `upstream_unreachable` as upstreamError does; every status is
 * answered, and `plainAnswerError` makes an error answer the platform error.
 * `egress` guards a URL that came through the API or an option, as in
 * createHttpClient (its own agents check where they connect).
 */
export function plainRequest(
  system: string,
  url: string,
  options: { method: "GET" | "POST"; headers?: Record<string, string>; body?: string; timeoutMs: number; egress?: EgressGuard; setting?: string },
): Promise<PlainAnswer> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const guard = options.egress;
    const headers = { "user-agent": USER_AGENT, ...options.headers, ...(options.body !== undefined && { "content-length": String(Buffer.byteLength(options.body)) }) };
    let timedOut = false;
    let settled = false;
    const fail = (error: NodeJS.ErrnoException) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.destroy();
      const refused = egressRefusalIn(error);
      if (refused) reject(egressRefused(system, refused));
      else reject(connectionFailure(system, guard, target, timedOut ? Object.assign(error, { code: "ETIMEDOUT" }) : error, options.setting));
    };
    const request = (target.protocol === "https:" ? https : http).request(target, { method: options.method, headers, agent: (guard?.agents ?? keepAliveAgents)[target.protocol === "https:" ? "https" : "http"] }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("error", fail);
      response.on("close", () => {
        if (!response.complete) fail(Object.assign(new Error("the answer was cut short"), { code: "ECONNRESET" }));
      });
      response.on("end", () => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString("utf8") });
      });
    });
    const timer = setTimeout(() => {
      timedOut = true;
      fail(new Error("timeout"));
    }, options.timeoutMs);
    request.on("error", fail);
    request.end(options.body);
  });
}

/** An error answer of `plainRequest` as the platform error, as upstreamError makes got's; `detail` reads the body (parsed as JSON when it is). */
export function plainAnswerError(system: string, answer: PlainAnswer, detail?: (body: unknown) => UpstreamDetail | undefined): AppError {
  let extra: UpstreamDetail | undefined;
  try {
    extra = detail?.(jsonOrUndefined(answer.body));
  } catch {
    extra = undefined;
  }
  return answerError(system, answer.status, extra);
}
