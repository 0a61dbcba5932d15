import { promises as dns } from "node:dns";
import http from "node:http";
import https from "node:https";
import { isIP, type LookupFunction } from "node:net";
import type { Duplex } from "node:stream";
import type { Config } from "../config/config.ts";
import { addressRefusal } from "./addresses.ts";

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Every address a host name resolves to. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

const systemResolver: Resolver = (hostname) => dns.lookup(hostname, { all: true, verbatim: true });

const guardsByLookup = new WeakMap<LookupFunction, EgressGuard>();

/** The guard whose `lookup` this is (a failed got request carries its options' `dnsLookup`); undefined for an unguarded request. */
export function guardOfLookup(lookup: unknown): EgressGuard | undefined {
  return typeof lookup === "function" ? guardsByLookup.get(lookup as LookupFunction) : undefined;
}

/** The guard's refusal behind `error` (got and sockets wrap it as a cause), if that is what it is. */
export function egressRefusalIn(error: unknown): EgressRefused | undefined {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth++) {
    if (current instanceof EgressRefused) return current;
  }
  return undefined;
}

/** A destination the guard would not connect to; `reason` says why in words. */
export class EgressRefused extends Error {
  readonly code = "EGRESS_REFUSED";

  constructor(
    readonly host: string,
    readonly reason: string,
  ) {
    super(`the host ${host} was refused: ${reason}`);
    this.name = "EgressRefused";
  }
}

export interface EgressGuardOptions {
  /** ALLOW_PRIVATE_URLS: addresses are not checked (tests, the demo, an intranet deployment). */
  allowPrivate: boolean;
  /** How host names are resolved; the system resolver unless a test gives its own. */
  resolve?: Resolver;
  /**
   * Host names let through whatever they resolve to. Nothing in the
   * configuration sets it: tests use it to serve an allowed first hop from
   * 127.0.0.1 while the guard is on.
   */
  trustedHosts?: readonly string[];
}

/** `[::1]` as URLs write it, `::1` as sockets take it. */
function bareHost(host: string): string {
  return host.replace(/^\[(.*)\]$/, "$1").toLowerCase();
}

function wantedFamily(family: number | string | undefined): 4 | 6 | undefined {
  if (family === 4 || family === "IPv4") return 4;
  if (family === 6 || family === "IPv6") return 6;
  return undefined;
}

/**
 * The egress guard for URLs that came through the API or an option: a host
 * is resolved once, every address it resolves to is checked
 * (`addressRefusal`), and the connection goes to those very addresses, so a
 * second DNS answer cannot swap in an internal one. It works where the
 * connection is made (the `lookup` of the socket and the agents below), so
 * every redirect hop is checked like the first. With `allowPrivate` nothing is
 * refused.
 */
export class EgressGuard {
  readonly allowPrivate: boolean;
  /** Keep-alive agents of guarded requests only: a socket opened by an unguarded request is never reused for a guarded one. */
  readonly agents: { http: http.Agent; https: https.Agent };
  private readonly resolver: Resolver;
  private readonly trustedHosts: ReadonlySet<string>;

  constructor(options: EgressGuardOptions) {
    this.allowPrivate = options.allowPrivate;
    this.resolver = options.resolve ?? systemResolver;
    this.trustedHosts = new Set((options.trustedHosts ?? []).map(bareHost));
    this.agents = { http: new GuardedHttpAgent(this), https: new GuardedHttpsAgent(this) };
    guardsByLookup.set(this.lookup, this);
  }

  /** Whether addresses are checked at all (ALLOW_PRIVATE_URLS off). */
  get active(): boolean {
    return !this.allowPrivate;
  }

  private checks(host: string): boolean {
    return !this.allowPrivate && !this.trustedHosts.has(bareHost(host));
  }

  /** The refusal of a host written as an address, which sockets connect to without a lookup; null for a name or an allowed address. */
  literalRefusal(host: string): EgressRefused | null {
    const bare = bareHost(host);
    if (!isIP(bare) || !this.checks(bare)) return null;
    const refusal = addressRefusal(bare);
    return refusal ? new EgressRefused(bare, `it is ${refusal}`) : null;
  }

  /** Every address `hostname` resolves to, each checked: one refused address refuses the host (its other answers could be steered to it). */
  async addresses(hostname: string): Promise<ResolvedAddress[]> {
    const bare = bareHost(hostname);
    const family = isIP(bare);
    if (family) {
      const refused = this.literalRefusal(bare);
      if (refused) throw refused;
      return [{ address: bare, family }];
    }
    const found = await this.resolver(bare);
    if (this.checks(bare)) {
      for (const { address } of found) {
        const refusal = addressRefusal(address);
        if (refusal) throw new EgressRefused(bare, `it resolves to ${refusal}`);
      }
    }
    return found;
  }

  /** Refuses a URL that is not http(s) or names a refused address; a host name is checked when the connection is made. */
  checkUrl(url: URL): void {
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new EgressRefused(url.host, `${url.protocol} URLs are not fetched`);
    const refused = this.literalRefusal(url.hostname);
    if (refused) throw refused;
  }

  /** The whole check ahead of time, the name resolved: for a URL handed to something that connects on its own (the browser, through the guard's proxy). */
  async checkDestination(url: URL): Promise<void> {
    this.checkUrl(url);
    await this.addresses(url.hostname);
  }

  /** A `lookup` for sockets (net, tls, got's `dnsLookup`): answers only with addresses that passed the check. */
  readonly lookup: LookupFunction = (hostname, options, callback) => {
    this.addresses(hostname).then(
      (found) => {
        const family = wantedFamily(options.family);
        const usable = family ? found.filter((entry) => entry.family === family) : found;
        const first = usable[0];
        if (!first) {
          callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND", hostname }), "", 0);
          return;
        }
        if (options.all) callback(null, usable);
        else callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, "", 0),
    );
  };
}

/** Refuses a host written as an address here: sockets skip `lookup` for those. */
function connectGuarded(guard: EgressGuard, options: http.ClientRequestArgs, callback: ((error: Error | null, socket: Duplex) => void) | undefined, connect: () => Duplex | null | undefined) {
  const refused = guard.literalRefusal(options.host ?? options.hostname ?? "");
  if (!refused) return connect();
  process.nextTick(() => callback?.(refused, undefined as unknown as Duplex));
  return undefined;
}

class GuardedHttpAgent extends http.Agent {
  constructor(private readonly guard: EgressGuard) {
    super({ keepAlive: true, lookup: guard.lookup });
  }

  override createConnection(options: http.ClientRequestArgs, callback?: (error: Error | null, socket: Duplex) => void) {
    return connectGuarded(this.guard, options, callback, () => super.createConnection(options, callback));
  }
}

class GuardedHttpsAgent extends https.Agent {
  constructor(private readonly guard: EgressGuard) {
    super({ keepAlive: true, lookup: guard.lookup });
  }

  override createConnection(options: https.RequestOptions, callback?: (error: Error | null, socket: Duplex) => void) {
    return connectGuarded(this.guard, options, callback, () => super.createConnection(options, callback));
  }
}

const processGuards = new Map<boolean, EgressGuard>();

/** This process's guard for its configuration (one per ALLOW_PRIVATE_URLS value, so its agents are shared). */
export function egressGuard(config: Pick<Config, "ALLOW_PRIVATE_URLS">): EgressGuard {
  let guard = processGuards.get(config.ALLOW_PRIVATE_URLS);
  if (!guard) {
    guard = new EgressGuard({ allowPrivate: config.ALLOW_PRIVATE_URLS });
    processGuards.set(config.ALLOW_PRIVATE_URLS, guard);
  }
  return guard;
}
