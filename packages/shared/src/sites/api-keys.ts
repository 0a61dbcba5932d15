import { randomToken, sha256Hex } from "../platform/crypto.ts";
import type { PrismaClient } from "../platform/db.ts";
import { touchLastUsed } from "../platform/last-used.ts";

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
export async function issueSiteApiKey(prisma: PrismaClient, siteId: number, label: string) {
  const key = `${KEY_PREFIX}${randomToken(32)}`;
  const row = await prisma.siteApiKey.create({
    data: { site_id: siteId, label, key_hash: sha256Hex(key), key_prefix: key.slice(0, 12) },
  });
  return { row, key };
}

/**
 * The site a key belongs to, or null when the key is unknown or revoked.
 * Read from the database on every request: revocation is immediate.
 */
export async function verifySiteApiKey(prisma: PrismaClient, key: string): Promise<SiteKeyPrincipal | null> {
  if (!key.startsWith(KEY_PREFIX) || key.length > 128) return null;
  const row = await prisma.siteApiKey.findUnique({
    where: { key_hash: sha256Hex(key) },
    select: { id: true, site_id: true, revoked_at: true, last_used_at: true },
  });
  if (!row || row.revoked_at) return null;
  touchLastUsed(row.last_used_at, () => prisma.siteApiKey.update({ where: { id: row.id }, data: { last_used_at: new Date() } }));
  return { siteId: row.site_id, keyId: row.id };
}
