import { type RedisClient, sha256Hex } from "@mw/platform";

export interface LoginLimits {
  perLogin: number;
  perIp: number;
  windowSeconds: number;
}

/**
 * Failed password logins counted in Redis (shared by every API process), per
 * login and per client address, over a fixed window that starts with the
 * first failure. Past either limit, logins are refused, even with the right
 * password, until the window ends; a successful login clears its login's count.
 */
export class LoginThrottle {
  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
    private readonly limits: LoginLimits,
  ) {}

  private keys(login: string, ip: string): [string, string] {
    // Hashed: keys must not spell out logins, and any login text makes a safe key.
    return [`${this.prefix}:login-failures:login:${sha256Hex(login.toLowerCase())}`, `${this.prefix}:login-failures:ip:${ip}`];
  }

  /** Seconds until a login may be tried again, or 0 when it may be tried now. */
  async retryAfter(login: string, ip: string): Promise<number> {
    const [loginKey, ipKey] = this.keys(login, ip);
    const replies = (await this.redis.multi().get(loginKey).get(ipKey).ttl(loginKey).ttl(ipKey).exec()) ?? [];
    const [byLogin, byIp, loginTtl, ipTtl] = replies.map(([, value]) => Number(value ?? 0));
    const waits = [];
    if (byLogin! >= this.limits.perLogin) waits.push(loginTtl!);
    if (byIp! >= this.limits.perIp) waits.push(ipTtl!);
    return waits.length ? Math.max(1, ...waits) : 0;
  }

  async failed(login: string, ip: string): Promise<void> {
    const multi = this.redis.multi();
    for (const key of this.keys(login, ip)) multi.incr(key).expire(key, this.limits.windowSeconds, "NX");
    await multi.exec();
  }

  async succeeded(login: string, ip: string): Promise<void> {
    await this.redis.del(this.keys(login, ip)[0]);
  }
}
