import { setTimeout as sleep } from "node:timers/promises";
import { HTTPError, type Response } from "got";
import { AppError, errors } from "../core/errors.ts";
import { upstreamError, type UpstreamDetailReader } from "./http.ts";

/**
 * How a provider says "too many requests, come back in a while": HTTP 429
 * plus a header naming the wait. A storefront sync makes hundreds of calls,
 * so one 429 is waited out in place instead of failing the whole run; the
 * wait is bounded, so a storefront that keeps refusing cannot hold a worker:
 * past the bound the call fails with a transient `upstream_rate_limited` and
 * BullMQ retries the job after its backoff.
 */
export interface RateLimitPolicy {
  /** The wait the 429 answer asks for, in ms; null when it names none. */
  waitMs(response: Response): number | null;
  /** The most one call may spend waiting, over all its 429s. */
  maxWaitMs: number;
}

/** When a 429 names no wait. */
const DEFAULT_WAIT_MS = 1000;
/** A provider that keeps answering 429 with a zero wait must not spin forever. */
const MAX_RETRIES = 10;

/** Runs one request to `system`, waiting out 429 answers per `policy`; other failures are thrown as `upstreamError`. */
export async function rateLimitedCall<T>(system: string, request: () => Promise<T>, policy: RateLimitPolicy, detail?: UpstreamDetailReader): Promise<T> {
  let waited = 0;
  for (let retry = 0; ; retry += 1) {
    try {
      return await request();
    } catch (error) {
      if (!(error instanceof HTTPError) || error.response.statusCode !== 429) throw upstreamError(system, error, detail);
      const wait = policy.waitMs(error.response) ?? DEFAULT_WAIT_MS;
      if (retry >= MAX_RETRIES || waited + wait > policy.maxWaitMs) {
        throw errors.upstream(429, `${system} is rate limiting: it asked for another ${wait} ms after ${waited} ms of waiting`, {
          code: "upstream_rate_limited",
          data: { retry_after_ms: wait },
          cause: error,
          system,
        });
      }
      await sleep(wait);
      waited += wait;
    }
  }
}

/** A header holding a whole number of milliseconds (BigCommerce's `X-Rate-Limit-Time-Reset-Ms`). */
export function headerMs(value: string | string[] | undefined): number | null {
  const text = Array.isArray(value) ? value[0] : value;
  return text !== undefined && /^\d+$/.test(text.trim()) ? Number(text.trim()) : null;
}

/** `Retry-After` (RFC 9110): delay seconds or an HTTP date, as ms from `now`. */
export function retryAfterMs(value: string | string[] | undefined, now = Date.now()): number | null {
  const text = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!text) return null;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** The longest a job is put back for an upstream that asked to be called later; a longer `Retry-After` is cut to this. */
export const MAX_JOB_DELAY_MS = 10 * 60_000;

/**
 * The `data` member by which an upstream error asks the worker to run the job
 * again after this many ms rather than fail the attempt (the ERP's 429/503
 * with `Retry-After`): waiting is what the upstream asked for, so it must not
 * use up the job's attempts.
 */
export const JOB_DELAY_MS = "job_delay_ms";

/** `Retry-After` as a job delay: the wait asked for, bounded by MAX_JOB_DELAY_MS; null when the header names none. */
export function jobDelayFromRetryAfter(value: string | string[] | undefined): number | null {
  const wait = retryAfterMs(value);
  return wait === null ? null : Math.min(wait, MAX_JOB_DELAY_MS);
}

/** The delay an error asks of its job (see JOB_DELAY_MS), or null when it is an ordinary failure. */
export function jobDelayAsked(error: unknown): number | null {
  const wait = error instanceof AppError ? error.data[JOB_DELAY_MS] : undefined;
  return typeof wait === "number" ? wait : null;
}
