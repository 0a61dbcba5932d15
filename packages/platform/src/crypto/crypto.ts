import { createCipheriv, createDecipheriv, createHash, hash as digest, randomBytes, scrypt, timingSafeEqual } from "node:crypto";
import { promisify } from "node:util";

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, keylen: number, options: object) => Promise<Buffer>;
const SCRYPT = { N: 16384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };
const ENVELOPE_VERSION = "v1";

/** One-shot `hash` rather than createHash: these run on request paths (keys, cache keys), and it is twice as fast for short inputs. */
export function sha256Hex(data: string | Buffer): string {
  return digest("sha256", data, "hex");
}

export function md5Hex(data: string | Buffer): string {
  return createHash("md5").update(data).digest("hex");
}

/** URL-safe random token of `bytes` random bytes. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString("base64url");
}

/**
 * Constant-time string comparison for secrets: both sides are hashed in full
 * to 32-byte SHA-256 digests and the digests compared with timingSafeEqual. A
 * length check first would tell a guesser the secret's length, and an
 * early-exit comparison how much of a guess matches; here neither changes
 * the work done.
 */
export function safeEqual(a: string, b: string): boolean {
  return timingSafeEqual(digest("sha256", a, "buffer"), digest("sha256", b, "buffer"));
}

/** `scrypt$N$r$p$salt$hash`, all parameters kept so they can be raised later. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(password, salt, 32, SCRYPT);
  return ["scrypt", SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString("base64"), hash.toString("base64")].join("$");
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split("$");
  if (scheme !== "scrypt" || !salt || !hash) return false;
  const expected = Buffer.from(hash, "base64");
  const actual = await scryptAsync(password, Buffer.from(salt, "base64"), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: SCRYPT.maxmem,
  });
  return timingSafeEqual(actual, expected);
}

/** Encrypts a secret for storage: `v1:<iv>:<tag>:<ciphertext>` (base64), AES-256-GCM. */
export function encryptSecret(plaintext: string, key: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return [ENVELOPE_VERSION, iv.toString("base64"), cipher.getAuthTag().toString("base64"), body.toString("base64")].join(":");
}

/**
 * Envelopes already opened, per key: the dispute pipeline opens the same
 * merchant and fraud keys for every job, and AES-GCM's setup is a few per
 * cent of a job's CPU. The process holds these secrets while it uses them
 * anyway; bounded, and never written anywhere.
 */
const opened = new WeakMap<Buffer, Map<string, string>>();
const MAX_OPENED = 1000;

export function decryptSecret(envelope: string, key: Buffer): string {
  let cache = opened.get(key);
  if (!cache) {
    cache = new Map();
    opened.set(key, cache);
  }
  let secret = cache.get(envelope);
  if (secret === undefined) {
    secret = openEnvelope(envelope, key);
    if (cache.size >= MAX_OPENED) cache.clear();
    cache.set(envelope, secret);
  }
  return secret;
}

function openEnvelope(envelope: string, key: Buffer): string {
  const [version, iv, tag, body] = envelope.split(":");
  if (version !== ENVELOPE_VERSION || !iv || !tag || body === undefined) throw new Error("not an encrypted secret");
  const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64"));
  decipher.setAuthTag(Buffer.from(tag, "base64"));
  return Buffer.concat([decipher.update(Buffer.from(body, "base64")), decipher.final()]).toString("utf8");
}
