import type { PrismaClient } from "../generated/prisma/client.ts";
import type { RedisClient } from "../redis/redis.ts";
import { latestGtidPosition, parseGtidPosition, PRIMARY, type CallerWrites } from "./replica.ts";

/**
 * Each caller's last write, as the primary's GTID position just after it, in
 * Redis so that every API process sees it: `<prefix>:ryw:<caller>`, kept as
 * long as the replica may lag before reads leave it anyway
 * (REPLICA_MAX_LAG_SECONDS) plus a margin for how often the lag is measured.
 * A read by the same caller within that time waits for the replica to reach
 * the position (ReplicaState.side), so the caller sees what it wrote.
 */
export class RedisCallerWrites implements CallerWrites {
  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
    private readonly primary: Pick<PrismaClient, "$queryRaw">,
    private readonly ttlMs: number,
  ) {}

  /** Called once a caller's write request has been served, before its answer leaves: the caller's next request may already come to another process. */
  async wrote(callers: string[]): Promise<void> {
    const position = await this.primaryPosition();
    await Promise.all(callers.map((caller) => this.redis.set(this.key(caller), position, "PX", this.ttlMs)));
  }

  async lastWrite(callers: string[]): Promise<string | undefined> {
    const found = (await Promise.all(callers.map((caller) => this.redis.get(this.key(caller))))).filter((value): value is string => value !== null);
    if (found.length === 0) return undefined;
    if (found.includes(PRIMARY)) return PRIMARY;
    return latestGtidPosition(found);
  }

  /** The primary's binlog position now: at or past the write just committed. PRIMARY where it cannot be read (no binlog, MySQL): the caller's reads then go to the primary. */
  private async primaryPosition(): Promise<string> {
    try {
      const [row] = await this.primary.$queryRaw<{ p: string | null }[]>`SELECT @@gtid_binlog_pos AS p`;
      const position = row?.p ?? "";
      return parseGtidPosition(position).size > 0 ? position : PRIMARY;
    } catch {
      return PRIMARY;
    }
  }

  private key(caller: string): string {
    return `${this.prefix}:ryw:${caller}`;
  }
}
