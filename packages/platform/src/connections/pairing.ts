import type { Config } from "../config/config.ts";
import { describeDatabase, readDatabaseIdentity } from "../database/identity.ts";
import { createRedis, type RedisClient } from "../redis/redis.ts";

const EX_CONFIG = 78;

/** What a queue prefix records of the database its jobs belong to. */
export interface PrefixOwner {
  identity: string;
  /** Host and name, for the lines that name it (never the user or password). */
  database: string;
  recorded_at: string;
}

type PairingConfig = Pick<Config, "DATABASE_URL" | "QUEUE_PREFIX">;

/**
 * The key holding the prefix's owner. One key, read and written alone, so on a cluster it needs no
 * slot shared with the queues' keys; under the prefix, it goes wherever the prefix's keys go.
 */
export function pairingKey(prefix: string): string {
  return `${prefix}:database`;
}

async function thisDatabase(config: PairingConfig): Promise<PrefixOwner> {
  return { identity: await readDatabaseIdentity(config.DATABASE_URL), database: describeDatabase(config.DATABASE_URL), recorded_at: new Date().toISOString() };
}

function parseOwner(value: string): PrefixOwner {
  try {
    return JSON.parse(value) as PrefixOwner;
  } catch {
    return { identity: "", database: "(unreadable)", recorded_at: "" };
  }
}

/**
 * Records this database as the prefix's owner when the prefix has none yet (the first process to use
 * it), and answers the owner otherwise: `other` when it is another database.
 */
export async function pairPrefix(redis: RedisClient, config: PairingConfig): Promise<{ mine: PrefixOwner; owner: PrefixOwner; other: boolean }> {
  const mine = await thisDatabase(config);
  const key = pairingKey(config.QUEUE_PREFIX);
  for (;;) {
    if ((await redis.set(key, JSON.stringify(mine), "NX")) === "OK") return { mine, owner: mine, other: false };
    const recorded = await redis.get(key);
    // Gone between the two commands (an adopt, or the prefix emptied): try recording again.
    if (recorded === null) continue;
    const owner = parseOwner(recorded);
    return { mine, owner, other: owner.identity !== mine.identity };
  }
}

/** The one line a process on another database prints before it exits. */
export function refusalLine(prefix: string, owner: PrefixOwner, mine: PrefixOwner): string {
  return (
    `QUEUE_PREFIX "${prefix}" holds the jobs of the database ${owner.database}, not of this one, ${mine.database} (DATABASE_URL): ` +
    `point DATABASE_URL at that database or set another QUEUE_PREFIX; to move the prefix to this database on purpose, \`pnpm cli queues:adopt --yes\`.`
  );
}

/**
 * Start-up gate of every process that uses the queues, before any worker runs or any job is added:
 * exits 78 with one line when QUEUE_PREFIX belongs to another database (docs/operations.md, "A database
 * and its queues"), so no job of that database is taken, failed or added to by this one.
 */
export async function pairingOrExit(config: PairingConfig & Pick<Config, "REDIS_URL">): Promise<void> {
  const redis = createRedis(config.REDIS_URL, { name: "mw-pairing" });
  try {
    const { mine, owner, other } = await pairPrefix(redis, config);
    if (!other) return;
    console.error(refusalLine(config.QUEUE_PREFIX, owner, mine));
    process.exit(EX_CONFIG);
  } finally {
    redis.disconnect();
  }
}

/** What `queues:adopt` changes: the prefix's owner before and after. */
export interface Adoption {
  prefix: string;
  from: PrefixOwner | null;
  to: PrefixOwner;
  changed: boolean;
}

/**
 * Makes this database the prefix's owner (`apply`), or only says what that would change. The prefix's
 * jobs then run against this database, and processes on the one it held refuse to start.
 */
export async function adoptPrefix(redis: RedisClient, config: PairingConfig, apply: boolean): Promise<Adoption> {
  const to = await thisDatabase(config);
  const key = pairingKey(config.QUEUE_PREFIX);
  const recorded = await redis.get(key);
  const from = recorded === null ? null : parseOwner(recorded);
  const changed = from?.identity !== to.identity;
  if (apply && changed) await redis.set(key, JSON.stringify(to));
  return { prefix: config.QUEUE_PREFIX, from, to, changed };
}
