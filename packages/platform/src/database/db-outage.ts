import type { PrismaClient } from "./db.ts";
import type { Logger } from "../logging/logger.ts";

/**
 * Tells a database outage from a failing query, so an outage costs one warning
 * line and one recovery line rather than a stack trace per request. The first
 * database error is checked with a probe: if the database answers, the error
 * was the query's own and is the caller's to log; if not, an outage starts,
 * is logged once, and the probe repeats until the database is back.
 */
export class DatabaseOutage {
  private down = false;
  private probing?: Promise<boolean>;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly logger: Logger,
    private readonly probeEveryMs = 2000,
  ) {}

  /** Answers whether the error belongs to an outage (already logged, nothing more to say). */
  async explains(error: unknown): Promise<boolean> {
    if (this.down) return true;
    this.probing ??= this.reachable().finally(() => (this.probing = undefined));
    if (await this.probing) return false;
    if (!this.down) {
      this.down = true;
      this.logger.warn("database unreachable: requests answer 500 db_error until it is back", { error: (error as Error).message });
      this.watch();
    }
    return true;
  }

  private async reachable(): Promise<boolean> {
    try {
      await this.prisma.$queryRaw`SELECT 1`;
      return true;
    } catch {
      return false;
    }
  }

  private watch(): void {
    const timer = setTimeout(async () => {
      if (await this.reachable()) {
        this.down = false;
        this.logger.warn("database reachable again");
      } else {
        this.watch();
      }
    }, this.probeEveryMs);
    timer.unref();
  }
}
