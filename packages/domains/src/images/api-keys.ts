import { touchLastUsed } from "@mw/platform/core";
import type { PrismaClient } from "@mw/platform/database";
import { randomToken, safeEqual, sha256Hex } from "@mw/platform/crypto";
import type { Connections } from "@mw/platform/connections";

const KEY_PREFIX = "mwi_";

/** Issues an image-API key: 32 random bytes, returned once; only the SHA-256 is stored. */
export async function issueImageApiKey(deps: Pick<Connections, "prisma">, label: string): Promise<{ id: number; key: string }> {
  const key = `${KEY_PREFIX}${randomToken(32)}`;
  const row = await deps.prisma.imageApiKey.create({ data: { label, key_hash: sha256Hex(key) }, select: { id: true } });
  return { id: row.id, key };
}

/** Revokes a key for good; false when no active key has that id. */
export async function revokeImageApiKey(deps: Pick<Connections, "prisma">, id: number): Promise<boolean> {
  const revoked = await deps.prisma.imageApiKey.updateMany({ where: { id, revoked_at: null }, data: { revoked_at: new Date() } });
  return revoked.count > 0;
}

/**
 * The key's id, or null when it is unknown or revoked. Read on every request,
 * so revocation is immediate. The row is found by hash (a fast index lookup,
 * no slow KDF: the key carries 256 random bits); the index compares by
 * collation, so the exact bytes are then compared in constant time.
 */
export async function verifyImageApiKey(prisma: PrismaClient, key: string): Promise<number | null> {
  if (!key.startsWith(KEY_PREFIX) || key.length > 128) return null;
  const hash = sha256Hex(key);
  const row = await prisma.imageApiKey.findUnique({ where: { key_hash: hash }, select: { id: true, key_hash: true, revoked_at: true, last_used_at: true } });
  if (!row || row.revoked_at || !safeEqual(row.key_hash, hash)) return null;
  touchLastUsed(row.last_used_at, () => prisma.imageApiKey.update({ where: { id: row.id }, data: { last_used_at: new Date() } }));
  return row.id;
}
