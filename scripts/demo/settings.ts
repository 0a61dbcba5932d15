// What `pnpm demo` takes from the operator's settings (the environment, then
// .env as `pnpm start` reads it): where MariaDB and Redis are, the port and
// the queue prefix. The rest of the demo's platform settings are its own, so a
// real key or account in .env (an AI key, an SMS account, Harvest, S3) is
// never used against the fakes' data, nor the fakes against a real service.
import { existsSync, readFileSync } from "node:fs";
import { parseEnv } from "node:util";
import { fileURLToPath } from "node:url";
import { configSchema } from "@mw/platform";

const ROOT_ENV_FILE = fileURLToPath(new URL("../../.env", import.meta.url));

/** Settings the demo's API and worker take from the operator's: how to reach MariaDB and Redis, and how hard to use them. */
const PASSED_THROUGH = ["REDIS_SENTINEL_PASSWORD", "REDIS_TLS_CA_FILE", "REDIS_WAIT_REPLICAS", "REDIS_WAIT_TIMEOUT_MS", "DB_POOL_SIZE"] as const;

export interface DemoSettings {
  /** The operator's database (DATABASE_URL), whose server the demo's own database goes on. */
  baseDatabaseUrl: string;
  /** The same server and user, database `<name>_demo`, recreated on every run. */
  databaseUrl: string;
  redisUrl: string;
  /** QUEUE_PREFIX + `_demo`: the demo's keys, cleared on every run, never the platform's own. */
  queuePrefix: string;
  /** PORT (3000 unset); 0 asks for any free port. */
  port: number;
  passedThrough: Record<string, string>;
}

/**
 * Reads the environment with `.env` filling in what it lacks (as the
 * platform's config does), then the demo's settings from it.
 */
export function demoSettings(env: NodeJS.ProcessEnv = process.env, envFile = ROOT_ENV_FILE): DemoSettings {
  const merged = { ...readEnvFile(envFile), ...Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== "")) } as Record<string, string>;
  const baseDatabaseUrl = merged.DATABASE_URL ?? "mysql://mw:mw@127.0.0.1:3306/mw";
  const demo = new URL(baseDatabaseUrl);
  demo.pathname = `${demo.pathname}_demo`;
  return {
    baseDatabaseUrl,
    databaseUrl: demo.toString(),
    redisUrl: merged.REDIS_URL ?? "redis://127.0.0.1:6379",
    queuePrefix: `${merged.QUEUE_PREFIX ?? "mw"}_demo`,
    port: merged.PORT === undefined ? 3000 : Number(merged.PORT),
    passedThrough: Object.fromEntries(PASSED_THROUGH.filter((name) => merged[name] !== undefined).map((name) => [name, merged[name]!])),
  };
}

function readEnvFile(file: string): Record<string, string> {
  if (!existsSync(file)) return {};
  return Object.fromEntries(Object.entries(parseEnv(readFileSync(file, "utf8"))).filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== ""));
}

/**
 * The environment of the demo's API and worker: `own` and the settings passed
 * through, every other platform setting empty. Empty counts as unset, and the
 * platform's .env loading fills in only variables that are not set at all, so
 * nothing from .env reaches them.
 */
export function isolatedEnvironment(settings: DemoSettings, own: Record<string, string>): Record<string, string> {
  const blank = Object.fromEntries(Object.keys(configSchema.shape).map((name) => [name, ""]));
  return { ...blank, ...settings.passedThrough, ...own };
}
