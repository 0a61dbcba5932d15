import { type RedisClient, sha256Hex } from "@mw/platform";

export interface LoginLimits {
  perLogin: number;
  perIp: number;
  windowSeconds: number;
}

/**
 * The login text as the users table compares it (utf8mb4_unicode_ci ignores
 * case, accents and trailing spaces): "ópt" and "opt " name the user "opt".
 * The throttle counts logins of no user by this; a user's by its id.
 */
export function collatedLogin(login: string): string {
  const folded = login.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase();
  let end = folded.length;
  while (end > 0 && folded[end - 1] === " ") end -= 1;
  return folded.slice(0, end);
}

/** Who a login attempt is against: the user it reaches, else its collated text. */
export type LoginSubject = { userId: number } | { login: string };

/**
 * Failed password logins counted in Redis (shared by every API process), per
 * subject (the user the login reaches, however it is spelt) and per client
 * address, over a fixed window that starts with the first failure. Past
 * either limit, logins are refused, even with the right password, until the
 * window ends; a successful login clears its subject's count.
 */
export class LoginThrottle {
  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
    private readonly limits: LoginLimits,
  ) {}

  private keys(subject: LoginSubject, ip: string): [string, string] {
    // A login is hashed: keys must not spell out logins, and any login text makes a safe key.
    const who = "userId" in subject ? `user:${subject.userId}` : `login:${sha256Hex(collatedLogin(subject.login))}`;
    return [`${this.prefix}:login-failures:${who}`, `${this.prefix}:login-failures:ip:${ip}`];
  }

  /**
   * One count and its time to live, read together. The two counts are read
   * apart: on a Redis Cluster a login's key and an address's key may sit on
   * different nodes, where one MULTI cannot reach both.
   */
  private async count(key: string): Promise<{ count: number; ttl: number }> {
    const replies = (await this.redis.multi().get(key).ttl(key).exec()) ?? [];
    const [count, ttl] = replies.map(([error, value]) => {
      if (error) throw error;
      return Number(value ?? 0);
    });
    return { count: count ?? 0, ttl: ttl ?? 0 };
  }

  /** Seconds until a login may be tried again, or 0 when it may be tried now. */
  async retryAfter(subject: LoginSubject, ip: string): Promise<number> {
    const [loginKey, ipKey] = this.keys(subject, ip);
    const [byLogin, byIp] = await Promise.all([this.count(loginKey), this.count(ipKey)]);
    const waits = [];
    if (byLogin.count >= this.limits.perLogin) waits.push(byLogin.ttl);
    if (byIp.count >= this.limits.perIp) waits.push(byIp.ttl);
    return waits.length ? Math.max(1, ...waits) : 0;
  }

  /** Each key counted in a MULTI of its own (one slot each): its window starts with its first failure. */
  async failed(subject: LoginSubject, ip: string): Promise<void> {
    await Promise.all(
      this.keys(subject, ip).map(async (key) => {
        for (const [error] of (await this.redis.multi().incr(key).expire(key, this.limits.windowSeconds, "NX").exec()) ?? []) if (error) throw error;
      }),
    );
  }

  async succeeded(subject: LoginSubject, ip: string): Promise<void> {
    await this.redis.del(this.keys(subject, ip)[0]);
  }
}
