import { touchLastUsed } from "@mw/platform/core";
import type { InvalidatedCache, Invalidation } from "@mw/platform/redis";
import type { PrismaClient } from "@mw/platform/database";
import { randomToken, sha256Hex } from "@mw/platform/crypto";
import type { Connections } from "@mw/platform/connections";

const KEY_PREFIX = "mwk_";

export interface SiteKeyPrincipal {
  siteId: number;
  keyId: number;
}

/**
 * Issues a site API key. The key (32 random bytes) is returned once; only its
 * SHA-256 is stored, so a lookup by hash is both the check and the constant-
 * time part (no secret-dependent comparison happens in our code).
 */
export async function issueSiteApiKey(deps: Pick<Connections, "prisma">, siteId: number, label: string) {
  const key = `${KEY_PREFIX}${randomToken(32)}`;
  const row = await deps.prisma.siteApiKey.create({
    data: { site_id: siteId, label, key_hash: sha256Hex(key), key_prefix: key.slice(0, 12) },
  });
  return { row, key };
}

/** Channel of the site-key caches: published after a key is revoked or a site (with its keys) deleted. */
export const SITE_KEYS_CHANGED = "site-keys";

/** One page of a site's keys, newest first (never the keys themselves: only their hash is stored). */
export async function listSiteApiKeys(deps: Pick<Connections, "prisma">, siteId: number, window: { skip: number; take: number }) {
  const where = { site_id: siteId };
  const [total, rows] = await Promise.all([deps.prisma.siteApiKey.count({ where }), deps.prisma.siteApiKey.findMany({ where, orderBy: { id: "desc" }, ...window })]);
  return { total, rows };
}

/**
 * Revokes a key of the site, effective on the next request in every process
 * (SITE_KEYS_CHANGED is published before this returns); false when the site
 * has no such key.
 */
export async function revokeSiteApiKey(deps: Pick<Connections, "prisma" | "invalidation">, siteId: number, keyId: number): Promise<boolean> {
  const result = await deps.prisma.siteApiKey.updateMany({ where: { id: keyId, site_id: siteId }, data: { revoked_at: new Date() } });
  if (result.count === 0) return false;
  await deps.invalidation.publish(SITE_KEYS_CHANGED);
  return true;
}

interface CachedKey extends SiteKeyPrincipal {
  lastUsedAt: Date | null;
}

/**
 * Verifies site API keys on the order intake's hot path. A valid key is kept
 * in memory, so a request normally costs no database read. Revocation stays
 * immediate across processes: the revoking request publishes SITE_KEYS_CHANGED
 * before it answers, every process clears its cache, each request first
 * checks the channel's version (so a message not yet read cannot let a
 * revoked key through), and a process whose subscription is down reads the
 * database every time (InvalidatedCache).
 */
export class SiteKeys {
  private readonly cache: InvalidatedCache<CachedKey>;

  constructor(
    private readonly prisma: PrismaClient,
    invalidation: Invalidation,
  ) {
    this.cache = invalidation.cache<CachedKey>(SITE_KEYS_CHANGED, 10_000);
  }

  /** The site a key belongs to, or null when the key is unknown or revoked. */
  async verify(key: string): Promise<SiteKeyPrincipal | null> {
    if (!key.startsWith(KEY_PREFIX) || key.length > 128) return null;
    const hash = sha256Hex(key);
    await this.cache.catchUp();
    let cached = this.cache.get(hash);
    if (!cached) {
      const stamp = this.cache.stamp();
      const row = await this.prisma.siteApiKey.findUnique({
        where: { key_hash: hash },
        select: { id: true, site_id: true, revoked_at: true, last_used_at: true },
      });
      if (!row || row.revoked_at) return null;
      cached = { siteId: row.site_id, keyId: row.id, lastUsedAt: row.last_used_at };
      this.cache.set(hash, cached, stamp);
    }
    const entry = cached;
    touchLastUsed(entry.lastUsedAt, () => {
      entry.lastUsedAt = new Date();
      return this.prisma.siteApiKey.updateMany({ where: { id: entry.keyId }, data: { last_used_at: entry.lastUsedAt } });
    });
    return { siteId: entry.siteId, keyId: entry.keyId };
  }
}
