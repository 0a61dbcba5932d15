import type { RedisClient } from "@mw/platform/redis";
import { randomToken, sha256Hex } from "@mw/platform/crypto";

export interface SessionRecord {
  userId: number;
  nonce: string;
  /** passwordStamp of the password the session was started with: a new password ends the session. */
  password: string;
}

/**
 * Login sessions live in Redis under the SHA-256 of the cookie value, so a
 * Redis dump does not hand out live cookies. Each session has one nonce, sent
 * back by the client as `X-Nonce` (or the AJAX `nonce` field).
 */
export class SessionStore {
  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
    private readonly ttlSeconds: number,
  ) {}

  private key(sessionId: string): string {
    return `${this.prefix}:session:${sha256Hex(sessionId)}`;
  }

  async create(userId: number, passwordStamp: string): Promise<{ sessionId: string; nonce: string }> {
    const sessionId = randomToken(32);
    const nonce = randomToken(16);
    await this.redis.set(this.key(sessionId), JSON.stringify({ userId, nonce, password: passwordStamp } satisfies SessionRecord), "EX", this.ttlSeconds);
    return { sessionId, nonce };
  }

  async get(sessionId: string): Promise<SessionRecord | null> {
    const raw = await this.redis.get(this.key(sessionId));
    return raw ? (JSON.parse(raw) as SessionRecord) : null;
  }

  async destroy(sessionId: string): Promise<void> {
    await this.redis.del(this.key(sessionId));
  }
}
