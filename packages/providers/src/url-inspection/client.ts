import { z } from "zod";
import { createHttpClient, parseUpstream, upstreamCall } from "@mw/platform/http";

export const URL_INSPECTION_PATH = "v1/urlInspection/index:inspect";

/** The part of Google's `UrlInspectionResult` the dashboard shows; every field may be absent. */
const inspection = z.object({
  inspectionResult: z
    .object({
      inspectionResultLink: z.string().optional(),
      indexStatusResult: z
        .object({
          verdict: z.string().optional(),
          coverageState: z.string().optional(),
          indexingState: z.string().optional(),
          pageFetchState: z.string().optional(),
          robotsTxtState: z.string().optional(),
          lastCrawlTime: z.string().optional(),
          googleCanonical: z.string().optional(),
        })
        .loose()
        .default({}),
    })
    .loose(),
});

/** Google's error body: `{error: {code, message, status}}`. */
function googleDetail(body: unknown) {
  const parsed = z.object({ error: z.object({ message: z.string(), status: z.string().optional() }) }).safeParse(body);
  return parsed.success ? { reason: `${parsed.data.error.status ?? "error"}: ${parsed.data.error.message}` } : undefined;
}

export interface IndexStatus {
  url: string;
  /** Google's verdict PASS means the URL is on Google. */
  indexed: boolean;
  verdict: string | null;
  coverage_state: string | null;
  indexing_state: string | null;
  page_fetch_state: string | null;
  robots_txt_state: string | null;
  last_crawl_time: string | null;
  google_canonical: string | null;
  inspection_link: string | null;
}

/**
 * Asks a search-console-style URL inspection API whether a page is indexed:
 * Google Search Console's `POST {INDEX_API_URL}/v1/urlInspection/index:inspect
 * {inspectionUrl, siteUrl}` with a Bearer token; `siteUrl` is the property,
 * here the site's URL-prefix property (its base URL with a trailing slash).
 */
export async function inspectUrl(apiUrl: string, token: string, page: { inspectionUrl: string; siteUrl: string }, timeoutMs: number): Promise<IndexStatus> {
  const http = createHttpClient({ baseUrl: apiUrl, setting: "INDEX_API_URL", timeoutMs, headers: { authorization: `Bearer ${token}` } });
  const body = await upstreamCall("URL inspection API", () => http.post(URL_INSPECTION_PATH, { json: page }).json(), googleDetail);
  const status = parseUpstream("URL inspection API", URL_INSPECTION_PATH, inspection, body).inspectionResult;
  const index = status.indexStatusResult;
  return {
    url: page.inspectionUrl,
    indexed: index.verdict === "PASS",
    verdict: index.verdict ?? null,
    coverage_state: index.coverageState ?? null,
    indexing_state: index.indexingState ?? null,
    page_fetch_state: index.pageFetchState ?? null,
    robots_txt_state: index.robotsTxtState ?? null,
    last_crawl_time: index.lastCrawlTime ?? null,
    google_canonical: index.googleCanonical ?? null,
    inspection_link: status.inspectionResultLink ?? null,
  };
}
