import { z } from "zod";
import { AppError } from "@mw/platform/core";
import type { EgressGuard } from "@mw/platform/egress";
import { createHttpClient, jsonOrUndefined, parseUpstream, upstreamCall } from "@mw/platform/http";

/** A plugin as the dashboard keeps it; `update_available` is null when the site does not say (see `updateAvailable`). */
export interface WordPressPlugin {
  plugin: string;
  name: string;
  version: string | null;
  active: boolean;
  update_available: boolean | null;
}

export interface WordPressReading {
  name: string;
  description: string;
  plugins: WordPressPlugin[];
}

/** The REST index every WordPress answers at `/wp-json/`; `wp/v2` among its namespaces is what tells WordPress apart. */
const restIndex = z.object({ name: z.string(), description: z.string(), namespaces: z.array(z.string()) });

/** An item of `GET /wp-json/wp/v2/plugins`; `update` is not core's: see `updateAvailable`. */
const pluginItem = z.object({
  plugin: z.string(),
  name: z.string(),
  version: z.string().nullish(),
  status: z.string(),
  update: z.union([z.object({ new_version: z.string() }).loose(), z.literal(false), z.null()]).optional(),
});

/** WordPress's REST error body: `{code, message, data: {status}}`. */
function wordpressDetail(body: unknown) {
  const parsed = z.object({ code: z.string(), message: z.string() }).safeParse(body);
  return parsed.success ? { reason: `${parsed.data.message} (${parsed.data.code})`, data: { wp_code: parsed.data.code } } : undefined;
}

/** Dotted version numbers compared part by part; a non-numeric part compares as text. */
function isNewer(candidate: string, current: string): boolean {
  const a = candidate.split(/[.-]/);
  const b = current.split(/[.-]/);
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const [x = "0", y = "0"] = [a[i], b[i]];
    if (x === y) continue;
    const [nx, ny] = [Number(x), Number(y)];
    return Number.isNaN(nx) || Number.isNaN(ny) ? x > y : nx > ny;
  }
  return false;
}

/**
 * WordPress core's plugins endpoint does not say whether an update waits
 * (docs/decisions.md): a site that adds the `update_plugins` transient's entry
 * as an `update` field (`{new_version}`, or false) is read; otherwise it is
 * unknown (null), never a made-up "no".
 */
function updateAvailable(item: z.output<typeof pluginItem>): boolean | null {
  if (item.update === undefined) return null;
  if (!item.update) return false;
  return item.version ? isNewer(item.update.new_version, item.version) : true;
}

/**
 * Reads a WordPress site's REST API (design 10.6): `/wp-json/` for its name
 * and description, `/wp-json/wp/v2/plugins` with an application password
 * (HTTP Basic) for its plugins. An answer that is not WordPress's, or refused
 * credentials, end in an error that says so. The site URL was entered, so
 * every call and redirect goes through the egress guard.
 */
export async function readWordPress(siteUrl: string, credentials: { username: string; appPassword: string }, timeoutMs: number, egress: EgressGuard): Promise<WordPressReading> {
  const system = `WordPress at ${siteUrl}`;
  const http = createHttpClient({ timeoutMs, egress });
  const notWordPress = (why: string) => AppError.permanent(`${siteUrl} does not look like WordPress: ${why}`, "not_wordpress");

  const indexUrl = `${siteUrl}/wp-json/`;
  const root = await upstreamCall(system, () => http.get(indexUrl, { throwHttpErrors: false }));
  if (root.statusCode === 404) throw notWordPress("/wp-json/ answered HTTP 404 (no REST API there)");
  if (root.statusCode >= 400) throw notWordPress(`/wp-json/ answered HTTP ${root.statusCode}`);
  const index = restIndex.safeParse(jsonOrUndefined(root.body));
  if (!index.success) throw notWordPress(`/wp-json/ is not the WordPress REST index (${String(root.headers["content-type"] ?? "no content type")})`);
  if (!index.data.namespaces.includes("wp/v2")) throw notWordPress("its REST API has no wp/v2 namespace");

  const pluginsUrl = `${siteUrl}/wp-json/wp/v2/plugins`;
  const body = await upstreamCall(
    system,
    () => http.get(pluginsUrl, { username: credentials.username, password: credentials.appPassword, searchParams: { context: "view" } }).text(),
    wordpressDetail,
  );
  const items = parseUpstream(system, "/wp-json/wp/v2/plugins", z.array(pluginItem), jsonOrUndefined(body));
  return {
    name: index.data.name,
    description: index.data.description,
    plugins: items.map((item) => ({
      plugin: item.plugin,
      name: item.name,
      version: item.version ?? null,
      active: item.status === "active" || item.status === "network-active",
      update_available: updateAvailable(item),
    })),
  };
}
