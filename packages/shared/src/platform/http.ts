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
  if (error instanceof HTTPError) {
    const status = error.response.statusCode;
    const extra = detail && readDetail(detail, error.response);
    const message = `${system} answered HTTP ${status}${extra?.reason === undefined ? "" : `: ${extra.reason}`}`;
    return errors.upstream(status, message, { data: extra?.data, cause: error });
  }
  if (error instanceof RequestError) {
    return new AppError(502, "upstream_unreachable", `${system} request failed: ${error.code ?? error.message}`, {}, { cause: error });
  }
  return new AppError(502, "upstream_error", `${system} request failed: ${String(error)}`, {}, { cause: error });
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
