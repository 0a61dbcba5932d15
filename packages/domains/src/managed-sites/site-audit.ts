import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";
import { AppError } from "@mw/platform/core";
import { egressGuard, type EgressGuard } from "@mw/platform/egress";
import { createHttpClient, upstreamCall } from "@mw/platform/http";
import type { JobRun } from "@mw/platform/queues";
import type { Connections } from "@mw/platform/connections";
import { siteForJob, storeAudit } from "./site-results.ts";

const MAX_REDIRECTS = 10;

const DECODERS: Record<string, (body: Buffer) => Buffer> = { gzip: gunzipSync, "x-gzip": gunzipSync, deflate: inflateSync, br: brotliDecompressSync };

/** What run_audit stores on the site (`last_audit`), figures of the page the URL finally leads to. */
interface SiteAudit {
  url: string;
  final_url: string;
  status: number;
  /** Request start to the first byte of the final answer (DNS, connection and TLS included), as curl's time_starttransfer. */
  ttfb_ms: number;
  /** The whole chain, redirects and body included. */
  total_ms: number;
  /** Body bytes as sent (compressed when compressed). */
  transfer_bytes: number;
  /** Body bytes once decoded; null when the encoding is one we cannot decode. */
  content_bytes: number | null;
  /** The Content-Encoding, null when uncompressed. */
  compression: string | null;
  http_version: string;
  cache: { cache_control: string | null; age: string | null; x_cache: string | null; cf_cache_status: string | null; expires: string | null; etag: string | null };
  redirects: { url: string; status: number; location: string }[];
}

const header = (value: string | string[] | undefined) => (Array.isArray(value) ? value.join(", ") : (value ?? null));

function decodedSize(body: Buffer, encoding: string | null): number | null {
  if (!encoding || encoding === "identity") return body.length;
  const decode = DECODERS[encoding.toLowerCase()];
  try {
    return decode ? decode(body).length : null;
  } catch {
    return null;
  }
}

/**
 * Requests `url` as a browser would (compression accepted, HTTP/2 when the
 * server offers it over TLS) and follows redirects by hand so that each hop is
 * on record. Each request has the timeout; an answer with an error status is
 * still an audit result. Every hop goes through the egress guard.
 */
async function auditUrl(url: string, timeoutMs: number, egress: EgressGuard): Promise<SiteAudit> {
  const http = createHttpClient({ timeoutMs, egress, headers: { "accept-encoding": "gzip, deflate, br", accept: "text/html,*/*;q=0.8" } });
  const started = performance.now();
  const redirects: SiteAudit["redirects"] = [];
  let current = url;
  for (;;) {
    const response = await upstreamCall(`the site at ${current}`, () =>
      http.get(current, { followRedirect: false, decompress: false, throwHttpErrors: false, responseType: "buffer", http2: true }),
    );
    const location = header(response.headers.location);
    if (response.statusCode >= 300 && response.statusCode < 400 && location) {
      if (redirects.length === MAX_REDIRECTS) throw AppError.permanent(`${url} redirects more than ${MAX_REDIRECTS} times (last to ${location})`, "too_many_redirects");
      const next = new URL(location, current).toString();
      redirects.push({ url: current, status: response.statusCode, location: next });
      current = next;
      continue;
    }
    const { timings } = response;
    const compression = header(response.headers["content-encoding"]);
    return {
      url,
      final_url: current,
      status: response.statusCode,
      ttfb_ms: Math.round((timings.response ?? timings.end ?? timings.start) - timings.start),
      total_ms: Math.round(performance.now() - started),
      transfer_bytes: response.rawBody.length,
      content_bytes: decodedSize(response.rawBody, compression),
      compression,
      http_version: `HTTP/${response.httpVersion === "2.0" ? "2" : response.httpVersion}`,
      cache: {
        cache_control: header(response.headers["cache-control"]),
        age: header(response.headers.age),
        x_cache: header(response.headers["x-cache"]),
        cf_cache_status: header(response.headers["cf-cache-status"]),
        expires: header(response.headers.expires),
        etag: header(response.headers.etag),
      },
      redirects,
    };
  }
}

/** run_audit (issue 16): the audit of the site's URL, stored as its `last_audit`; a rerun replaces it. */
export async function auditSite(deps: Pick<Connections, "prisma" | "config"> & Pick<JobRun, "progress">, siteId: number) {
  const site = await siteForJob(deps, siteId);
  await deps.progress(0, 1, `requesting ${site.url}`);
  const audit = await auditUrl(site.url, deps.config.HTTP_TIMEOUT_MS, egressGuard(deps.config));
  await storeAudit(deps, site.id, audit);
  await deps.progress(1, 1, `${audit.status} in ${audit.total_ms} ms`);
  return { site_id: site.id, ...audit };
}
