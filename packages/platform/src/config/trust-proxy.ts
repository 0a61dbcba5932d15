import { isIP } from "node:net";

/**
 * Which peers' `X-Forwarded-*` headers count (Express's `trust proxy`): none,
 * the number of proxy hops in front of the API, or the proxies' addresses.
 * Never "everyone": then the client address, which the login throttle and
 * the rate limits count, would be whatever the caller wrote in X-Forwarded-For.
 */
export type TrustProxy = false | number | string[];

/** Names Express (proxy-addr) accepts for well-known ranges. */
const RANGE_NAMES = new Set(["loopback", "linklocal", "uniquelocal"]);

const MAX_HOPS = 10;

function addressProblem(entry: string): string | null {
  if (RANGE_NAMES.has(entry)) return null;
  const slash = entry.indexOf("/");
  const address = slash < 0 ? entry : entry.slice(0, slash);
  const version = isIP(address);
  if (!version) return `"${entry}" is not an IP address, a CIDR range or one of ${[...RANGE_NAMES].join(", ")}`;
  if (slash < 0) return null;
  const prefix = entry.slice(slash + 1);
  const bits = version === 4 ? 32 : 128;
  if (/^\d{1,3}$/.test(prefix) && Number(prefix) <= bits) return null;
  if (version === 4 && isIP(prefix) === 4) return null; // proxy-addr also takes 10.0.0.0/255.0.0.0
  return `"${entry}" has a bad prefix length (0-${bits})`;
}

/** A comma-separated list of addresses, CIDR ranges and range names (METRICS_ALLOW), or what is wrong with it. */
export function parseAddressList(value: string): { entries: string[] } | { problem: string } {
  const entries = value.split(",").map((entry) => entry.trim().toLowerCase()).filter(Boolean);
  const problem = entries.length === 0 ? "is empty" : entries.map(addressProblem).find((found) => found !== null);
  return problem ? { problem } : { entries };
}

/**
 * Reads TRUST_PROXY: `false`/`0` (the default), a hop count (`1` for one
 * proxy), or a comma-separated list of addresses and CIDR ranges. `true`
 * meant "trust any X-Forwarded-For" and is now read as one hop
 * (trustProxyDeprecation says so once at start-up).
 */
export function parseTrustProxy(value: string): { trust: TrustProxy } | { problem: string } {
  const text = value.trim().toLowerCase();
  if (text === "false" || text === "no" || text === "0") return { trust: false };
  if (text === "true" || text === "yes") return { trust: 1 };
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    return hops <= MAX_HOPS ? { trust: hops } : { problem: `at most ${MAX_HOPS} proxy hops` };
  }
  const list = parseAddressList(text);
  if ("problem" in list) return { problem: `${list.problem}; give a hop count (e.g. 1), the proxies' addresses or CIDR ranges, or false` };
  return { trust: list.entries };
}

/** The one-line warning for a TRUST_PROXY that still says `true`, or null. */
export function trustProxyDeprecation(env: NodeJS.ProcessEnv): string | null {
  const text = env.TRUST_PROXY?.trim().toLowerCase();
  if (text !== "true" && text !== "yes") return null;
  return `TRUST_PROXY=${env.TRUST_PROXY!.trim()} is deprecated and now means one proxy hop (TRUST_PROXY=1): set the number of proxies in front of the API, or their addresses (e.g. TRUST_PROXY=10.0.0.0/8)`;
}
