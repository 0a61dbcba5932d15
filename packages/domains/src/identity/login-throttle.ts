import type { RedisClient } from "@mw/platform/redis";
// The script alone, not the Redis client: `pnpm cli user:*` loads this domain and needs only the database.
import { LuaScript } from "@mw/platform/redis/lua-script";
import { sha256Hex } from "@mw/platform/crypto";

interface LoginLimits {
  perLogin: number;
  perIp: number;
  windowSeconds: number;
}

/**
 * The login text as the users table compares it (utf8mb4_unicode_ci ignores
 * case, accents and trailing spaces): "ópt" and "opt " name the user "opt".
 * The throttle counts logins of no user by this; a user's by its id.
 */
function collatedLogin(login: string): string {
  const folded = login.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase();
  let end = folded.length;
  while (end > 0 && folded[end - 1] === " ") end -= 1;
  return folded.slice(0, end);
}

/** Who a login attempt is against: the user it reaches, else its collated text. */
export type LoginSubject = { userId: number } | { login: string };

/**
 * Takes one attempt's place in a count, atomically: refused (minus the seconds
 * left, at least 1) when the count is at its limit, else counted, the window
 * starting with its first attempt. Reading the count and adding to it in one
 * step is what makes parallel guesses count one each.
 */
const RESERVE = new LuaScript(
  `local count = tonumber(redis.call("GET", KEYS[1]) or "0")
if count >= tonumber(ARGV[1]) then return -math.max(redis.call("TTL", KEYS[1]), 1) end
count = redis.call("INCR", KEYS[1])
redis.call("EXPIRE", KEYS[1], ARGV[2], "NX")
return count`,
  1,
);

/** Gives a place back, never below 0 nor to a count that has lapsed (DECR would make one without a window). */
const RELEASE = new LuaScript(
  `local count = tonumber(redis.call("GET", KEYS[1]) or "0")
if count > 0 then redis.call("DECR", KEYS[1]) end
return 0`,
  1,
);

type LoginReservation = { ok: true } | { ok: false; retryAfter: number };

/**
 * Password login attempts counted in Redis (shared by every API process), per
 * subject (the user the login reaches, however it is spelt) and per client
 * address, over a fixed window that starts with the first attempt. Each
 * attempt takes its place before the password is checked (reserve): past
 * either limit it is refused at once, even with the right password, until the
 * window ends. A failed attempt keeps its place; a successful one clears its
 * subject's count and gives its place in the address's count back.
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

  /** Seconds to wait (a positive number) or 0 when `key` took the attempt. */
  private async take(key: string, limit: number): Promise<number> {
    const reply = Number(await RESERVE.run(this.redis, key, limit, this.limits.windowSeconds));
    return reply < 0 ? -reply : 0;
  }

  /**
   * One attempt's place in both counts, or how long to wait. The two keys are
   * reserved one after the other, each in one step: on a Redis Cluster a
   * login's key and an address's key may sit on different nodes, where one
   * script cannot reach both. When the address refuses, the login's place is
   * given back, so a refused attempt counts against neither.
   */
  async reserve(subject: LoginSubject, ip: string): Promise<LoginReservation> {
    const [loginKey, ipKey] = this.keys(subject, ip);
    const byLogin = await this.take(loginKey, this.limits.perLogin);
    if (byLogin) return { ok: false, retryAfter: byLogin };
    const byIp = await this.take(ipKey, this.limits.perIp);
    if (!byIp) return { ok: true };
    await RELEASE.run(this.redis, loginKey);
    return { ok: false, retryAfter: byIp };
  }

  /** After the right password: the subject's count is cleared and the address's place given back. */
  async succeeded(subject: LoginSubject, ip: string): Promise<void> {
    const [loginKey, ipKey] = this.keys(subject, ip);
    await Promise.all([this.redis.del(loginKey), RELEASE.run(this.redis, ipKey)]);
  }
}
