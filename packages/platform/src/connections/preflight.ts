import type { Config } from "../config/config.ts";
import { createRedis } from "../redis/redis.ts";
import { certificateProblem, topologyProblem, watchProbe } from "../redis/redis-probe.ts";
import { describeRedisTarget, parseRedisUrl, RedisUrlError, type RedisTarget } from "../config/redis-url.ts";
import { pairingOrExit } from "./pairing.ts";
import { checkDatabase, CONNECT_TIMEOUT_MS, EX_CONFIG, EX_UNAVAILABLE, exitOnProblems, networkReason, type ServiceProblem } from "./database-check.ts";

/** Connects once to REDIS_URL and pings, without the reconnect loop of the long-lived connections. */
export async function checkRedis(redisUrl: string): Promise<ServiceProblem | undefined> {
  let target: RedisTarget;
  try {
    target = parseRedisUrl(redisUrl);
  } catch (error) {
    if (!(error instanceof RedisUrlError)) throw error;
    return { line: `REDIS_URL ${error.message}`, exitCode: EX_CONFIG };
  }
  const at = describeRedisTarget(target);
  const redis = createRedis(redisUrl, { probe: true });
  // With no retries, connect() rejects only with "Connection is closed": the cause is the error event's.
  const probe = watchProbe(redis);
  try {
    await redis.connect();
    await redis.ping();
    return undefined;
  } catch (raw) {
    const error = probe.cause(raw);
    const topology = (await certificateProblem(target, process.env.REDIS_TLS_CA_FILE || undefined)) ?? topologyProblem(target, error);
    if (topology) return topology;
    const network = networkReason(error) ?? (/ETIMEDOUT|timed? ?out/i.test(error.message) ? `no answer within ${CONNECT_TIMEOUT_MS / 1000} s` : undefined);
    if (network) {
      return {
        line: `Cannot reach Redis at ${at} (REDIS_URL): ${network}. Start Redis there (\`pnpm services\` runs a local one) or set REDIS_URL.`,
        exitCode: EX_UNAVAILABLE,
        nothingListens: error.code === "ECONNREFUSED",
      };
    }
    if (/NOAUTH|WRONGPASS|invalid password|AUTH/i.test(error.message)) {
      return { line: `Redis at ${at} refused the credentials in REDIS_URL: fix them in REDIS_URL.`, exitCode: EX_CONFIG };
    }
    return { line: `Cannot use Redis at ${at} (REDIS_URL): ${error.message.split("\n")[0]}`, exitCode: EX_UNAVAILABLE };
  } finally {
    redis.disconnect();
  }
}

/** Both checks at once; every problem found, so one start-up names all that needs fixing. */
export async function checkServices(config: Pick<Config, "DATABASE_URL" | "REDIS_URL">, options: { database: boolean }): Promise<ServiceProblem[]> {
  const found = await Promise.all([checkDatabase(config.DATABASE_URL, options), checkRedis(config.REDIS_URL)]);
  return found.filter((problem): problem is ServiceProblem => problem !== undefined);
}

/**
 * Start-up gate for every process: prints one line per problem and exits, or returns once both answer
 * and (with `database`) QUEUE_PREFIX belongs to this database (pairing.ts).
 * An unreachable read replica is a warning line, not a problem: its reads use the primary until it answers.
 */
export async function servicesOrExit(config: Pick<Config, "DATABASE_URL" | "REDIS_URL" | "DATABASE_REPLICA_URL" | "QUEUE_PREFIX">, options: { database: boolean }): Promise<void> {
  const [problems, replica] = await Promise.all([
    checkServices(config, options),
    config.DATABASE_REPLICA_URL ? checkDatabase(config.DATABASE_REPLICA_URL, { database: false, variable: "DATABASE_REPLICA_URL" }) : undefined,
  ]);
  if (replica) console.error(`${replica.line} Starting anyway: reads that tolerate lag use the primary until the replica answers.`);
  exitOnProblems(...problems);
  if (options.database) await pairingOrExit(config);
}
