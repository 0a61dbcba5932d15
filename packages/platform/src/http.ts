import http, { type IncomingHttpHeaders } from "node:http";
import https from "node:https";
import got, { HTTPError, RequestError, type ExtendOptions, type Got, type Response } from "got";
import type { z } from "zod";
import { AppError, errors } from "./errors.ts";
import { USER_AGENT } from "./version.ts";

export interface HttpClientOptions {
  baseUrl?: string;
  headers?: Record<string, string>;
  timeoutMs: number;
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
  return got.extend(extend);
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
  if (error instanceof HTTPError) return answerError(system, error.response.statusCode, detail && readDetail(detail, error.response), error);
  if (error instanceof RequestError) return unreachable(system, error.code ?? error.message, error);
  return new AppError(502, "upstream_error", `${system} request failed: ${String(error)}`, {}, { cause: error });
}

function answerError(system: string, status: number, extra: UpstreamDetail | undefined, cause?: unknown): AppError {
  const message = `${system} answered HTTP ${status}${extra?.reason === undefined ? "" : `: ${extra.reason}`}`;
  return errors.upstream(status, message, { data: extra?.data, ...(cause !== undefined && { cause }) });
}

function unreachable(system: string, reason: string, cause: unknown): AppError {
  return new AppError(502, "upstream_unreachable", `${system} request failed: ${reason}`, {}, { cause });
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

const keepAliveAgents = { "http:": new http.Agent({ keepAlive: true }), "https:": new https.Agent({ keepAlive: true }) };

/**
 * One request through node:http(s) on a keep-alive agent, its answer read in
 * full as text: for the hot paths where got's own work per request shows (the
 * dispute pipeline's gateway query and fraud submission; docs/decisions.md,
 * "Dispute pipeline throughput"). The rules of createHttpClient hold: the
 * User-Agent, one timeout for the whole exchange, no retries; redirects are
 * not followed. Not reaching `system`, the timeout and an answer cut short
 * throw `upstream_unreachable` as upstreamError does; every status is
 * answered, and `plainAnswerError` makes an error answer the platform error.
 */
export function plainRequest(
  system: string,
  url: string,
  options: { method: "GET" | "POST"; headers?: Record<string, string>; body?: string; timeoutMs: number },
): Promise<PlainAnswer> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const headers = { "user-agent": USER_AGENT, ...options.headers, ...(options.body !== undefined && { "content-length": String(Buffer.byteLength(options.body)) }) };
    let timedOut = false;
    let settled = false;
    const fail = (error: NodeJS.ErrnoException) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.destroy();
      reject(unreachable(system, timedOut ? "ETIMEDOUT" : (error.code ?? error.message), error));
    };
    const request = (target.protocol === "https:" ? https : http).request(target, { method: options.method, headers, agent: keepAliveAgents[target.protocol as "http:"] }, (response) => {
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
