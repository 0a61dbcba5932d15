import got, { HTTPError, RequestError, type ExtendOptions, type Got } from "got";
import { AppError } from "./errors.ts";
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

/**
 * Maps a got failure to the platform error. 4xx other than 408/429 will not
 * get better by retrying, so they are marked permanent.
 */
export function upstreamError(system: string, error: unknown): AppError {
  if (error instanceof HTTPError) {
    const status = error.response.statusCode;
    const result = new AppError(502, "upstream_error", `${system} answered HTTP ${status}`, { upstream_status: status }, { cause: error });
    result.permanent = status >= 400 && status < 500 && status !== 408 && status !== 429;
    return result;
  }
  if (error instanceof RequestError) {
    return new AppError(502, "upstream_unreachable", `${system} request failed: ${error.code ?? error.message}`, {}, { cause: error });
  }
  return new AppError(502, "upstream_error", `${system} request failed: ${String(error)}`, {}, { cause: error });
}
