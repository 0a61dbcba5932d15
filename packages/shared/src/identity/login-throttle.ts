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

  /** Seconds until a login may be tried again, or 0 when it may be tried now. */
  async retryAfter(subject: LoginSubject, ip: string): Promise<number> {
    const [loginKey, ipKey] = this.keys(subject, ip);
    const replies = (await this.redis.multi().get(loginKey).get(ipKey).ttl(loginKey).ttl(ipKey).exec()) ?? [];
    const [byLogin, byIp, loginTtl, ipTtl] = replies.map(([, value]) => Number(value ?? 0));
    const waits = [];
    if (byLogin! >= this.limits.perLogin) waits.push(loginTtl!);
    if (byIp! >= this.limits.perIp) waits.push(ipTtl!);
    return waits.length ? Math.max(1, ...waits) : 0;
  }

  async failed(subject: LoginSubject, ip: string): Promise<void> {
    const multi = this.redis.multi();
    for (const key of this.keys(subject, ip)) multi.incr(key).expire(key, this.limits.windowSeconds, "NX");
    await multi.exec();
  }

  async succeeded(subject: LoginSubject, ip: string): Promise<void> {
    await this.redis.del(this.keys(subject, ip)[0]);
  }
}
