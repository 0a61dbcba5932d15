import { createHash } from "node:crypto";
import type { Config } from "@mw/platform/config";
import type { RedisClient } from "@mw/platform/redis";
import { decryptSecret, encryptSecret } from "@mw/platform/crypto";
import { createHttpClient, parseUpstream, upstreamCall } from "@mw/platform/http";
import { z } from "zod";

/** Where the ERP's bearer token comes from: a static ERP_TOKEN, or OAuth 2.0 client credentials. */
export interface ErpTokens {
  /** The token to send; null when the ERP is called without one. */
  current(): Promise<string | null>;
  /** Called when the ERP refused `rejected` (401): a fresh token, or null when there is no other to try. */
  renew(rejected: string): Promise<string | null>;
}

export type ErpTokenConfig = Pick<
  Config,
  "ERP_TOKEN" | "ERP_TOKEN_URL" | "ERP_CLIENT_ID" | "ERP_CLIENT_SECRET" | "ERP_SCOPE" | "HTTP_TIMEOUT_MS" | "ENCRYPTION_KEY" | "QUEUE_PREFIX"
>;

/** How failures of the token endpoint name it. */
export const ERP_TOKEN_ENDPOINT = "ERP token endpoint";

/** A token is renewed this long before it expires (a fifth of its life when that is shorter), so no call goes out with one about to lapse. */
const RENEW_BEFORE_MS = 60_000;

const tokenAnswer = z.object({ access_token: z.string().min(1), expires_in: z.coerce.number().positive() });

interface HeldToken {
  token: string;
  /** When to fetch a new one (before the ERP's own expiry). */
  renewAt: number;
}

interface TokenStore {
  /** Tokens held, per credential set. */
  held: Map<string, HeldToken>;
  /** Fetches under way, so concurrent jobs wait for one request instead of each making their own. */
  fetching: Map<string, Promise<HeldToken>>;
}

/**
 * Tokens held in memory per Redis connection (one per process's connections; a
 * process without Redis has one store): every ErpClient a job builds over the same
 * connections shares them, so a token is fetched once per lifetime, not per job,
 * and connections opened for another ERP or Redis start from nothing.
 */
const stores = new WeakMap<RedisClient, TokenStore>();
const withoutRedis: TokenStore = { held: new Map(), fetching: new Map() };

function storeOf(redis: RedisClient | undefined): TokenStore {
  if (!redis) return withoutRedis;
  let store = stores.get(redis);
  if (!store) {
    store = { held: new Map(), fetching: new Map() };
    stores.set(redis, store);
  }
  return store;
}

export function erpTokens(config: ErpTokenConfig, redis?: RedisClient): ErpTokens {
  if (!config.ERP_TOKEN_URL) {
    const token = config.ERP_TOKEN ?? null;
    return { current: async () => token, renew: async () => null };
  }
  return new ClientCredentials(config, redis);
}

/**
 * OAuth 2.0 client credentials (RFC 6749, 4.4). The token is kept in the
 * process and in Redis, so the worker processes share one; Redis holds it
 * encrypted with ENCRYPTION_KEY, since anyone who reads it could call the ERP.
 */
class ClientCredentials implements ErpTokens {
  private readonly id: string;
  private readonly redisKey: string;
  private readonly store: TokenStore;

  constructor(
    private readonly config: ErpTokenConfig,
    private readonly redis: RedisClient | undefined,
  ) {
    // The client secret takes part, so a rotated secret never reuses a token fetched with the old one.
    this.id = createHash("sha256").update([config.ERP_TOKEN_URL, config.ERP_CLIENT_ID, config.ERP_CLIENT_SECRET, config.ERP_SCOPE].join("\n")).digest("hex");
    this.redisKey = `${config.QUEUE_PREFIX}:erp-token:${this.id.slice(0, 32)}`;
    this.store = storeOf(redis);
  }

  async current(): Promise<string> {
    const mine = this.store.held.get(this.id);
    if (mine && mine.renewAt > Date.now()) return mine.token;
    return (await this.once(async () => (await this.shared()) ?? (await this.fetch()))).token;
  }

  async renew(rejected: string): Promise<string> {
    if (this.store.held.get(this.id)?.token === rejected) this.store.held.delete(this.id);
    // Another process may have renewed it already; a token the ERP just refused is not taken from Redis again.
    return (
      await this.once(async () => {
        const shared = await this.shared();
        return shared && shared.token !== rejected ? shared : this.fetch();
      })
    ).token;
  }

  private async once(get: () => Promise<HeldToken>): Promise<HeldToken> {
    let pending = this.store.fetching.get(this.id);
    if (!pending) {
      pending = get().finally(() => this.store.fetching.delete(this.id));
      this.store.fetching.set(this.id, pending);
    }
    const token = await pending;
    this.store.held.set(this.id, token);
    return token;
  }

  private async shared(): Promise<HeldToken | null> {
    const stored = await this.redis?.get(this.redisKey);
    if (!stored) return null;
    const token = JSON.parse(decryptSecret(stored, this.config.ENCRYPTION_KEY)) as HeldToken;
    return token.renewAt > Date.now() ? token : null;
  }

  private async fetch(): Promise<HeldToken> {
    const { ERP_TOKEN_URL: url, ERP_CLIENT_ID, ERP_CLIENT_SECRET, ERP_SCOPE } = this.config;
    const http = createHttpClient({ timeoutMs: this.config.HTTP_TIMEOUT_MS, setting: "ERP_TOKEN_URL", headers: { accept: "application/json" } });
    const form = { grant_type: "client_credentials", client_id: ERP_CLIENT_ID!, client_secret: ERP_CLIENT_SECRET!, scope: ERP_SCOPE! };
    const body = await upstreamCall(ERP_TOKEN_ENDPOINT, () => http.post(url!, { form }).json());
    const answer = parseUpstream(ERP_TOKEN_ENDPOINT, new URL(url!).pathname, tokenAnswer, body);
    const lifetimeMs = answer.expires_in * 1000;
    const token = { token: answer.access_token, renewAt: Date.now() + lifetimeMs - Math.min(RENEW_BEFORE_MS, lifetimeMs / 5) };
    const ttlMs = Math.floor(token.renewAt - Date.now());
    if (this.redis && ttlMs > 0) await this.redis.set(this.redisKey, encryptSecret(JSON.stringify(token), this.config.ENCRYPTION_KEY), "PX", ttlMs);
    return token;
  }
}
