import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "./config.ts";
import { describeRedisTarget, parseRedisUrl, redactRedisUrl, RedisUrlError } from "./redis-url.ts";

function problem(url: string): string {
  try {
    parseRedisUrl(url);
  } catch (error) {
    if (error instanceof RedisUrlError) return error.message;
    throw error;
  }
  throw new Error(`${url} parsed`);
}

describe("REDIS_URL forms", () => {
  it("reads one node as ioredis does, keeping the URL itself for it", () => {
    expect(parseRedisUrl("redis://127.0.0.1:6379")).toEqual({ kind: "single", url: "redis://127.0.0.1:6379", tls: false, db: 0, host: "127.0.0.1", port: 6379 });
    expect(parseRedisUrl("rediss://u:p%40ss@cache.example:6380/3?family=6")).toMatchObject({ kind: "single", tls: true, db: 3, host: "cache.example", port: 6380, username: "u", password: "p@ss" });
    expect(parseRedisUrl("redis://:secret@localhost")).toMatchObject({ host: "localhost", port: 6379, password: "secret" });
    expect(parseRedisUrl("redis://[::1]:7000/")).toMatchObject({ host: "::1", port: 7000, db: 0 });
    expect(parseRedisUrl("REDIS://h")).toMatchObject({ kind: "single", host: "h" });
  });

  it("reads sentinels, the master's name and the database", () => {
    expect(parseRedisUrl("redis+sentinel://app:pw@s1:26379,s2:26380,s3/mymaster/2")).toEqual({
      kind: "sentinel",
      tls: false,
      sentinels: [
        { host: "s1", port: 26379 },
        { host: "s2", port: 26380 },
        { host: "s3", port: 26379 },
      ],
      masterName: "mymaster",
      db: 2,
      username: "app",
      password: "pw",
    });
    expect(parseRedisUrl("redis+sentinel://127.0.0.1:26379/mw")).toEqual({ kind: "sentinel", tls: false, sentinels: [{ host: "127.0.0.1", port: 26379 }], masterName: "mw", db: 0 });
  });

  it("reads the TLS forms of Sentinel and Cluster", () => {
    expect(parseRedisUrl("rediss+sentinel://:pw@s1:26379,s2/mw/1")).toMatchObject({ kind: "sentinel", tls: true, masterName: "mw", db: 1, password: "pw" });
    expect(parseRedisUrl("REDISS+CLUSTER://h1:7000,h2:7001")).toEqual({ kind: "cluster", tls: true, nodes: [{ host: "h1", port: 7000 }, { host: "h2", port: 7001 }] });
    expect(describeRedisTarget(parseRedisUrl("rediss+cluster://:pw@h1:7000"))).toBe("cluster h1:7000 (TLS)");
    expect(redactRedisUrl("rediss+sentinel://:pw@s1/mw")).toBe("rediss+sentinel://:***@s1/mw");
  });

  it("reads cluster seed nodes", () => {
    expect(parseRedisUrl("redis+cluster://:pw@10.0.0.1:7000,10.0.0.2:7001,[fe80::1]:7002")).toEqual({
      kind: "cluster",
      tls: false,
      nodes: [
        { host: "10.0.0.1", port: 7000 },
        { host: "10.0.0.2", port: 7001 },
        { host: "fe80::1", port: 7002 },
      ],
      password: "pw",
    });
    expect(parseRedisUrl("redis+cluster://h1:7000/")).toMatchObject({ kind: "cluster", nodes: [{ host: "h1", port: 7000 }] });
  });

  it("refuses what is none of the four forms, saying why", () => {
    expect(problem("http://x")).toMatch(/^must be redis:\/\/HOST:PORT\[\/DB\], rediss:\/\/.*redis\+sentinel:\/\/.*redis\+cluster:\/\//);
    expect(problem("127.0.0.1:6379")).toMatch(/^must be redis:\/\//);
    expect(problem("redis://a:1,b:2")).toMatch(/several hosts: use redis\+sentinel:\/\/ or redis\+cluster:\/\//);
    expect(problem("redis://h:0")).toMatch(/port that is not a number from 1 to 65535/);
    expect(problem("redis://h:99999")).toMatch(/port/);
    expect(problem("redis://h:63x")).toMatch(/port/);
    expect(problem("redis://h/one")).toMatch(/database that is not a number/);
    expect(problem("redis://")).toMatch(/empty host/);
    expect(problem("redis+cluster://h1:7000,,h2:7001")).toMatch(/empty host/);
    expect(problem("redis+cluster://h1:7000/1")).toMatch(/only database 0/);
    expect(problem("redis+cluster://h1:7000?x=1")).toMatch(/no query string/);
    expect(problem("redis+sentinel://s1:26379")).toMatch(/names no master/);
    expect(problem("redis+sentinel://s1:26379/")).toMatch(/names no master/);
    expect(problem("redis+sentinel://s1:26379/m/x")).toMatch(/database that is not a number/);
    expect(problem("redis+sentinel://s1:26379/m/1/2")).toMatch(/more path/);
    expect(problem("redis+sentinel://s1:26379/m%20x")).toMatch(/master name/);
    expect(problem("redis://h t:1")).toMatch(/not a host name/);
    expect(problem("redis://u:%zz@h")).toMatch(/badly %-encoded password/);
  });

  it("never puts the password in an error, whatever the URL", () => {
    const secret = "Sup3r-S3cret";
    const urls = [
      `redis://u:${secret}@h:99999`,
      `redis://u:${secret}@a:1,b:2`,
      `redis+sentinel://u:${secret}@s1:26379`,
      `redis+cluster://u:${secret}@h1:7000/4`,
      `redis+cluster://u:${secret}@h1:x`,
      `rediss://u:${secret}@/0`,
      `ftp://u:${secret}@h`,
      // Unencoded "/" or "?" in a password: the URL is cut inside it, and still nothing of it is repeated.
      `redis://u:6379/${secret}@h`,
      `redis+sentinel://u:26379/${secret}@h/m`,
      `redis+sentinel://u:26379/m/${secret}@h`,
      `redis+cluster://u:7000?${secret}@h`,
    ];
    for (const url of urls) {
      expect(problem(url)).not.toContain(secret);
      expect(redactRedisUrl(url)).not.toContain(secret);
    }
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.constantFrom("redis", "rediss", "redis+sentinel", "redis+cluster"), fc.string(), (password, scheme, tail) => {
        fc.pre(password.length >= 6);
        const url = `${scheme}://user:${encodeURIComponent(password)}@${tail}`;
        try {
          parseRedisUrl(url);
        } catch (error) {
          if (!(error instanceof RedisUrlError)) throw error;
          expect(error.message).not.toContain(encodeURIComponent(password));
        }
        expect(redactRedisUrl(url)).not.toContain(encodeURIComponent(password));
      }),
    );
  });

  it("redacts the password for messages and names the target without it", () => {
    expect(redactRedisUrl("redis+sentinel://app:pw@s1:26379,s2:26379/mymaster/1")).toBe("redis+sentinel://app:***@s1:26379,s2:26379/mymaster/1");
    expect(redactRedisUrl("redis://:pw@h:6379")).toBe("redis://:***@h:6379");
    expect(redactRedisUrl("redis://h:6379/2")).toBe("redis://h:6379/2");
    expect(redactRedisUrl("redis+cluster://u:pw@h1:7000,h2:x")).toBe("redis+cluster://…");
    expect(describeRedisTarget(parseRedisUrl("redis://:pw@h"))).toBe("h:6379");
    expect(describeRedisTarget(parseRedisUrl("redis+sentinel://:pw@s1,s2:26380/m"))).toBe("sentinels s1:26379,s2:26380, master m");
    expect(describeRedisTarget(parseRedisUrl("redis+cluster://:pw@h1:7000,[::1]:7001"))).toBe("cluster h1:7000,[::1]:7001");
  });

  it("is checked with the rest of the configuration, the password left out of the message", () => {
    const env = { ENCRYPTION_KEY: "0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0" };
    expect(parseConfig({ ...env, REDIS_URL: "redis+cluster://h1:7000,h2:7001" }).REDIS_URL).toBe("redis+cluster://h1:7000,h2:7001");
    expect(parseConfig({ ...env, REDIS_URL: "redis+sentinel://s1,s2/mw", REDIS_SENTINEL_PASSWORD: "x" }).REDIS_SENTINEL_PASSWORD).toBe("x");
    let error: unknown;
    try {
      parseConfig({ ...env, REDIS_URL: "redis+sentinel://u:hunter22@s1:26379" });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual(["REDIS_URL: names no master: redis+sentinel://HOST:PORT,HOST:PORT/MASTER[/DB]"]);
    expect((error as ConfigError).message).not.toContain("hunter22");
  });
});
