/**
 * REDIS_URL in its four forms, parsed by hand: Node's URL (and so ioredis's own
 * parser) throws on the comma-separated host lists of Sentinel and Cluster.
 *
 *   redis://[user:pass@]host[:port][/db][?query]       one node (as ioredis reads it)
 *   rediss://...                                        the same over TLS
 *   redis+sentinel://[user:pass@]h1:26379,h2:26379/<master name>[/<db>]
 *   redis+cluster://[user:pass@]h1:7000,h2:7001,...
 *   rediss+sentinel://..., rediss+cluster://...       the same over TLS (sentinels, masters, replicas and cluster nodes alike)
 *
 * Error messages name the problem and never repeat the URL: it may hold a password.
 */

export interface RedisHost {
  host: string;
  port: number;
}

interface Credentials {
  username?: string;
  password?: string;
}

/** One node: the URL itself goes to ioredis, so a single node connects exactly as it always has. */
export interface SingleRedisTarget extends Credentials, RedisHost {
  kind: "single";
  url: string;
  tls: boolean;
  db: number;
}

/** Sentinels to ask for the master's address; username and password are the data nodes'. */
export interface SentinelRedisTarget extends Credentials {
  kind: "sentinel";
  tls: boolean;
  sentinels: RedisHost[];
  masterName: string;
  db: number;
}

/** Seed nodes of a cluster: the client learns the rest from them. */
export interface ClusterRedisTarget extends Credentials {
  kind: "cluster";
  tls: boolean;
  nodes: RedisHost[];
}

export type RedisTarget = SingleRedisTarget | SentinelRedisTarget | ClusterRedisTarget;

/** A REDIS_URL that cannot be used; the message is safe to print (no credentials in it). */
export class RedisUrlError extends Error {
  override name = "RedisUrlError";
}

export const REDIS_URL_FORMS =
  "redis://HOST:PORT[/DB], rediss://HOST:PORT[/DB], redis+sentinel://HOST:PORT,HOST:PORT/MASTER[/DB] or redis+cluster://HOST:PORT,HOST:PORT,... (rediss+sentinel:// and rediss+cluster:// over TLS)";

const SCHEMES = {
  "redis:": "single",
  "rediss:": "single",
  "redis+sentinel:": "sentinel",
  "rediss+sentinel:": "sentinel",
  "redis+cluster:": "cluster",
  "rediss+cluster:": "cluster",
} as const;
const DEFAULT_PORT = { single: 6379, sentinel: 26379, cluster: 6379 } as const;
const HOST_NAME = /^[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?$/;
const IPV6 = /^\[[0-9A-Fa-f:.]+\]$/;
const MASTER_NAME = /^[A-Za-z0-9._-]+$/;

function decode(part: string, what: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    throw new RedisUrlError(`has a badly %-encoded ${what}`);
  }
}

function parseHost(text: string, defaultPort: number): RedisHost {
  // "[::1]:6379", "[::1]", "host:6379" or "host".
  const match = /^(\[[^\]]*\]|[^:]*)(?::([^:]*))?$/.exec(text);
  if (!match) throw new RedisUrlError("has a host that is not HOST, HOST:PORT or [IPV6]:PORT");
  const host = match[1]!;
  if (!(HOST_NAME.test(host) || IPV6.test(host))) {
    throw new RedisUrlError(host === "" ? "names an empty host" : `has a host that is not a host name or address: "${host}"`);
  }
  const portText = match[2];
  if (portText === undefined) return { host: host.startsWith("[") ? host.slice(1, -1) : host, port: defaultPort };
  const port = /^\d{1,5}$/.test(portText) ? Number(portText) : NaN;
  if (!(port >= 1 && port <= 65535)) throw new RedisUrlError(`has a port that is not a number from 1 to 65535 after host "${host}"`);
  return { host: host.startsWith("[") ? host.slice(1, -1) : host, port };
}

function parseDb(text: string): number {
  // The text is not repeated: a password with an unencoded "/" would end up here.
  if (!/^\d{1,5}$/.test(text)) throw new RedisUrlError("has a database that is not a number");
  return Number(text);
}

/** Parses REDIS_URL; throws RedisUrlError (message safe to print) when it is none of the four forms. */
export function parseRedisUrl(url: string): RedisTarget {
  const schemeEnd = url.indexOf("//");
  const scheme = schemeEnd > 0 ? url.slice(0, schemeEnd).toLowerCase() : "";
  if (!(scheme in SCHEMES)) throw new RedisUrlError(`must be ${REDIS_URL_FORMS}`);
  const kind = SCHEMES[scheme as keyof typeof SCHEMES];
  const tls = scheme.startsWith("rediss");
  const rest = url.slice(schemeEnd + 2);

  // The authority ends at the first "/", "?" or "#"; a password holding one of them must be %-encoded.
  const authorityEnd = rest.search(/[/?#]/);
  const authority = authorityEnd === -1 ? rest : rest.slice(0, authorityEnd);
  const tail = authorityEnd === -1 ? "" : rest.slice(authorityEnd);
  const at = authority.lastIndexOf("@");
  const userinfo = at === -1 ? undefined : authority.slice(0, at);
  const hostList = at === -1 ? authority : authority.slice(at + 1);

  const credentials: Credentials = {};
  if (userinfo !== undefined) {
    const colon = userinfo.indexOf(":");
    const username = decode(colon === -1 ? userinfo : userinfo.slice(0, colon), "user name");
    if (username) credentials.username = username;
    if (colon !== -1) {
      const password = decode(userinfo.slice(colon + 1), "password");
      if (password) credentials.password = password;
    }
  }

  const hostTexts = hostList.split(",");
  if (kind === "single" && hostTexts.length > 1) {
    throw new RedisUrlError("names several hosts: use redis+sentinel:// or redis+cluster:// for more than one node");
  }
  const hosts = hostTexts.map((text) => parseHost(text, DEFAULT_PORT[kind]));

  if (kind === "single") {
    // The query (e.g. ?family=6) is ioredis's business: it gets the URL as given.
    const query = tail.search(/[?#]/);
    const path = query < 0 ? tail : tail.slice(0, query);
    const db = path === "" || path === "/" ? 0 : parseDb(path.slice(1));
    return { kind, url, tls, db, ...hosts[0]!, ...credentials };
  }
  if (/[?#]/.test(tail)) throw new RedisUrlError(`takes no query string in its ${kind} form`);
  const segments = tail === "" ? [] : tail.slice(1).split("/");
  if (kind === "cluster") {
    if (segments.some((segment) => segment !== "")) throw new RedisUrlError("has a path, but a cluster has only database 0: redis+cluster://HOST:PORT,HOST:PORT,...");
    return { kind, tls, nodes: hosts, ...credentials };
  }
  const [masterName, db, ...extra] = segments;
  if (!masterName) throw new RedisUrlError("names no master: redis+sentinel://HOST:PORT,HOST:PORT/MASTER[/DB]");
  const name = decode(masterName, "master name");
  if (!MASTER_NAME.test(name)) throw new RedisUrlError("has a master name with characters other than letters, digits, . _ and -");
  if (extra.length > 0) throw new RedisUrlError("has more path than /MASTER/DB");
  return { kind, tls, sentinels: hosts, masterName: name, db: db === undefined || db === "" ? 0 : parseDb(db), ...credentials };
}

/** "a:1,[::1]:2": hosts as a URL writes them. */
export function describeHosts(hosts: RedisHost[]): string {
  return hosts.map(({ host, port }) => `${host.includes(":") ? `[${host}]` : host}:${port}`).join(",");
}

/** Where a target points, for log lines and errors: "host:port", "sentinels a:1,b:2, master m" or "cluster a:1,b:2". */
export function describeRedisTarget(target: RedisTarget): string {
  switch (target.kind) {
    case "single":
      return `${describeHosts([target])}${target.tls ? " (TLS)" : ""}`;
    case "sentinel":
      return `sentinels ${describeHosts(target.sentinels)}, master ${target.masterName}${target.tls ? " (TLS)" : ""}`;
    case "cluster":
      return `cluster ${describeHosts(target.nodes)}${target.tls ? " (TLS)" : ""}`;
  }
}

/**
 * REDIS_URL with its password replaced by "***", for messages that show the URL;
 * a URL that does not parse becomes its scheme alone, since where its password
 * ends is then unknown.
 */
export function redactRedisUrl(url: string): string {
  let target: RedisTarget;
  try {
    target = parseRedisUrl(url);
  } catch {
    return `${/^[a-z+]+:\/\//i.exec(url)?.[0] ?? ""}…`;
  }
  if (target.password === undefined) return url;
  const scheme = url.slice(0, url.indexOf("//") + 2);
  const rest = url.slice(scheme.length);
  const authorityEnd = rest.search(/[/?#]/);
  const authority = authorityEnd === -1 ? rest : rest.slice(0, authorityEnd);
  const at = authority.lastIndexOf("@");
  const user = authority.slice(0, at).split(":")[0];
  return `${scheme}${user}:***${rest.slice(at)}`;
}
