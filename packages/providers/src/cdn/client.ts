import { z } from "zod";
import { AppError } from "@mw/platform/core";
import { createHttpClient, notConfigured, parseUpstream, upstreamCall } from "@mw/platform/http";

/** Cloudflare's envelope: `{success, errors: [{code, message}], messages, result}`. */
const envelope = z.object({
  success: z.boolean(),
  errors: z.array(z.object({ code: z.number().optional(), message: z.string() }).loose()).default([]),
  result: z.object({ id: z.string() }).loose().nullish(),
});

const reasons = (errors: z.output<typeof envelope>["errors"]) => errors.map((error) => `${error.code ?? "?"} ${error.message}`).join("; ");

/** An error answer's envelope, so the failure names Cloudflare's reason (e.g. `10000 Authentication error`). */
function cdnDetail(body: unknown) {
  const parsed = envelope.safeParse(body);
  return parsed.success && parsed.data.errors.length ? { reason: reasons(parsed.data.errors) } : undefined;
}

/**
 * Purges everything cached in a zone through a Cloudflare-style API
 * (`POST {CDN_API_URL}/zones/{zone}/purge_cache {purge_everything: true}`,
 * Bearer token). A 200 whose `success` is false is a refusal too.
 */
export async function purgeZone(apiUrl: string | undefined, zoneId: string, token: string, timeoutMs: number): Promise<{ purge_id: string | null }> {
  if (!apiUrl) throw notConfigured("CDN API", "CDN_API_URL", "cdn_not_configured");
  const http = createHttpClient({ baseUrl: apiUrl, setting: "CDN_API_URL", timeoutMs, headers: { authorization: `Bearer ${token}` } });
  const path = `zones/${encodeURIComponent(zoneId)}/purge_cache`;
  const body = await upstreamCall("CDN API", () => http.post(path, { json: { purge_everything: true } }).json(), cdnDetail);
  const answer = parseUpstream("CDN API", path, envelope, body);
  if (!answer.success) throw AppError.permanent(`CDN API refused the purge of zone ${zoneId}: ${reasons(answer.errors) || "success false without errors"}`, "cdn_refused");
  return { purge_id: answer.result?.id ?? null };
}
