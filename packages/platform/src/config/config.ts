import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { QUEUE_NAMES, type QueueName } from "./queue-names.ts";
import { parseRedisUrl, RedisUrlError } from "./redis-url.ts";
import { parseAddressList, parseTrustProxy } from "./trust-proxy.ts";

const ROOT_ENV_FILE = fileURLToPath(new URL("../../../../.env", import.meta.url));

const bool = z
  .enum(["true", "false", "1", "0", "yes", "no"])
  .transform((v) => v === "true" || v === "1" || v === "yes");

/**
 * A URL of one of the schemes a setting's client speaks: a typo such as `htps://` stops start-up
 * naming the setting, rather than failing every call later. The message never repeats the URL (it may hold a password).
 */
function urlWithScheme(...schemes: string[]) {
  return z.url({ protocol: new RegExp(`^(${schemes.join("|")})$`), error: `must be a ${schemes.map((scheme) => `${scheme}://`).join(" or ")} URL` });
}
const httpUrl = urlWithScheme("http", "https");
const optionalUrl = httpUrl.optional();

/** A cron pattern as BullMQ's job schedulers take it: five fields, or six with seconds first. */
const cronPattern = z
  .string()
  .trim()
  .regex(/^[0-9A-Za-z*?,/#-]+( [0-9A-Za-z*?,/#-]+){4,5}$/, "must be a cron pattern of five fields (minute hour day month weekday), or six with seconds first");

/** Days a kind of record is kept; fractions are allowed so tests and `pnpm soak` can keep minutes. */
const retentionDays = z.coerce.number().min(0.0001).max(36_500);
/** Finished jobs of one kind one queue keeps in Redis. */
const finishedJobsMax = z.coerce.number().int().min(1).max(10_000_000);

const databaseUrl = z.string().regex(/^(mysql|mariadb):\/\/[^/]+\/[A-Za-z0-9_$]+(\?.*)?$/, "must be mysql://USER:PASSWORD@HOST:PORT/DATABASE");


/** Any REDIS_URL form the connection factory takes; the message never repeats the URL (it may hold a password). */
const redisUrl = z.string().superRefine((value, ctx) => {
  try {
    parseRedisUrl(value);
  } catch (error) {
    if (!(error instanceof RedisUrlError)) throw error;
    ctx.addIssue({ code: "custom", message: error.message });
  }
});

/** Which proxies' X-Forwarded-* headers count: false, a hop count, or addresses and CIDR ranges (trust-proxy.ts). */
const trustProxy = z.string().transform((value, ctx) => {
  const parsed = parseTrustProxy(value);
  if ("problem" in parsed) {
    ctx.addIssue({ code: "custom", message: parsed.problem });
    return z.NEVER;
  }
  return parsed.trust;
});

/** Client addresses and CIDR ranges (METRICS_ALLOW), with TRUST_PROXY's names for ranges. */
const addressList = z.string().transform((value, ctx) => {
  const parsed = parseAddressList(value);
  if ("problem" in parsed) {
    ctx.addIssue({ code: "custom", message: `${parsed.problem}; give addresses, CIDR ranges, loopback, linklocal or uniquelocal` });
    return z.NEVER;
  }
  return parsed.entries;
});

const queueList = z
  .string()
  .transform((value, ctx) => {
    if (value.trim() === "" || value.trim() === "all") return [...QUEUE_NAMES];
    const names = value.split(",").map((s) => s.trim()).filter(Boolean);
    for (const name of names) {
      if (!(QUEUE_NAMES as readonly string[]).includes(name)) {
        ctx.addIssue({ code: "custom", message: `unknown queue "${name}" (known: ${QUEUE_NAMES.join(", ")}, or all)` });
        return z.NEVER;
      }
    }
    return names as QueueName[];
  });

const concurrency = z.coerce.number().int().min(1).max(1000);

/**
 * 32 bytes for AES-256-GCM, given as 64 hex characters or base64.
 * Rotating it makes stored secrets unreadable, so it is never generated
 * silently at start-up (scripts/start.ts writes one into .env once).
 */
const encryptionKey = z.string().transform((value, ctx) => {
  const bytes = /^[0-9a-fA-F]{64}$/.test(value) ? Buffer.from(value, "hex") : Buffer.from(value, "base64");
  if (bytes.length !== 32) {
    ctx.addIssue({ code: "custom", message: "must be 32 bytes: 64 hex characters or base64 of 32 bytes" });
    return z.NEVER;
  }
  return bytes;
});

const routeRoot = z
  .string()
  .regex(/^(\/[A-Za-z0-9._~-]+)*$/, "must be empty or a path like /middleware/v1 (leading slash, no trailing slash)");

/** Every setting of the platform, each checked on its own; which rules tie them together depends on the process (SCHEMAS below). */
export const configSchema = z.object({
  NODE_ENV: z.enum(["development", "test", "production"]).default("development"),
  DATABASE_URL: databaseUrl.default("mysql://mw:mw@127.0.0.1:3306/mw"),
  /**
   * A read replica of DATABASE_URL (docs/deployment.md): reads that tolerate lag go there (reports, CSV exports,
   * the order list and stats, order-volume tests, the dashboard summary), falling back to the primary while it is
   * unreachable. Unset, every read goes to DATABASE_URL.
   */
  DATABASE_REPLICA_URL: databaseUrl.optional(),
  /**
   * With DATABASE_REPLICA_URL: the lag (measured every second from GTID positions) above which lag-tolerant reads
   * use the primary and /readyz says degraded. A caller's own writes are remembered this long plus 5 s, so its reads
   * after them wait for the replica to apply them (docs/deployment.md, "Read your own writes").
   */
  REPLICA_MAX_LAG_SECONDS: z.coerce.number().int().min(1).max(3600).default(10),
  /** How long a read that follows the caller's own write waits for the replica to apply it before it reads the primary; 0 reads the primary at once. */
  REPLICA_READ_WAIT_MS: z.coerce.number().int().min(0).max(10_000).default(1000),
  REDIS_URL: redisUrl.default("redis://127.0.0.1:6379"),
  /** The sentinels' own password, when they require one (REDIS_URL's password is the Redis nodes'). */
  REDIS_SENTINEL_PASSWORD: z.string().optional(),
  /**
   * With a rediss form of REDIS_URL: a PEM file of the CA(s) that sign the Redis servers' certificates, trusted
   * alone for Redis. Unset, Node's CAs plus NODE_EXTRA_CA_CERTS. The connection factory reads it from the environment.
   */
  REDIS_TLS_CA_FILE: z.string().trim().min(1).refine((file) => existsSync(file), "names no readable file").optional(),
  /**
   * Replicas that must hold a new job before adding it counts as done (Redis WAIT after the add):
   * 1 on a replicated deployment (Sentinel, a cluster with replicas), so a failover cannot lose a
   * job whose request was answered; 0 (one node) waits for none.
   */
  REDIS_WAIT_REPLICAS: z.coerce.number().int().min(0).max(10).default(0),
  /** How long an add waits for those replicas; past it the add fails (the API answers 503 queue_unavailable, the inbox sweep queues it). */
  REDIS_WAIT_TIMEOUT_MS: z.coerce.number().int().min(10).max(4000).default(1000),
  HOST: z.string().default("0.0.0.0"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  PUBLIC_URL: optionalUrl,
  TRUST_PROXY: trustProxy.default(false),
  /** Refuse plain-HTTP requests and send HSTS (spec 1, 5); default on when NODE_ENV=production. */
  REQUIRE_HTTPS: bool.optional(),
  QUEUE_PREFIX: z.string().regex(/^[A-Za-z0-9_{}-]+$/, "letters, digits, _ - and {} only").default("mw"),
  ENCRYPTION_KEY: encryptionKey,
  API_ROOT: routeRoot.default("/middleware/v1"),
  REST_ROOT: routeRoot.default(""),
  /** The toolshed (spec 2, 4.3): a directory of tool directories, each with an index module; unset, the built-in tools. */
  TOOLSHED_DIR: z.string().trim().min(1).optional(),
  BODY_LIMIT: z.string().regex(/^\d+(b|kb|mb)$/i, "a size like 1mb or 512kb").default("1mb"),
  SESSION_TTL_SECONDS: z.coerce.number().int().min(60).default(8 * 3600),
  COOKIE_SECURE: bool.optional(),
  LOG_DIR: z.string().default("logs"),
  LOG_LEVEL: z.enum(["error", "warn", "info", "debug"]).default("info"),
  LOG_STDOUT: bool.default(true),
  /** How log lines look on stdout/stderr: one JSON object each, or one human line each; unset, pretty on a terminal and JSON otherwise. Files are always JSON. */
  LOG_FORMAT: z.enum(["json", "pretty"]).optional(),
  /** Days a process or queue log file (LOG_DIR, LOG_DIR/queues) is kept after its last write: spec 2, section 8 says 30. */
  LOG_RETENTION_DAYS: retentionDays.default(30),
  /** Size at which a queue log file (LOG_DIR/queues) rolls over to the next: spec 2, section 8 says 5 MB; tests use a few KB. */
  QUEUE_LOG_MAX_SIZE: z.string().regex(/^[1-9]\d*[kmg]$/i, "a size like 5m, 512k or 1g").default("5m").transform((size) => size.toLowerCase()),
  /**
   * Lifts the egress guard: URLs entered through the API or an option may then reach loopback,
   * private, link-local and other internal addresses (tests, the demo, an intranet deployment).
   */
  ALLOW_PRIVATE_URLS: bool.default(false),
  HTTP_TIMEOUT_MS: z.coerce.number().int().min(100).max(300_000).default(15_000),
  /** The most one storefront call waits out 429 answers before the job gives up and BullMQ retries it later. */
  STOREFRONT_RATE_LIMIT_MAX_WAIT_MS: z.coerce.number().int().min(0).max(600_000).default(60_000),
  WORKER_QUEUES: queueList.default([...QUEUE_NAMES]),
  WORKER_CONCURRENCY: concurrency.default(5),
  WORKER_CONCURRENCY_ORDERS: concurrency.optional(),
  WORKER_CONCURRENCY_DISPUTES: concurrency.optional(),
  WORKER_CONCURRENCY_INVENTORY: concurrency.optional(),
  WORKER_CONCURRENCY_TRACKING: concurrency.optional(),
  WORKER_CONCURRENCY_URGENCY: concurrency.optional(),
  WORKER_CONCURRENCY_REPORTS: concurrency.optional(),
  WORKER_CONCURRENCY_NOTIFICATIONS: concurrency.optional(),
  WORKER_CONCURRENCY_WEBHOOKS: concurrency.optional(),
  WORKER_CONCURRENCY_TIMETRACKING: concurrency.optional(),
  WORKER_CONCURRENCY_DASHBOARD: concurrency.optional(),
  WORKER_CONCURRENCY_KNOWLEDGE: concurrency.optional(),
  /**
   * A killed worker's job is taken back once its lock has expired (at most this long after the
   * kill) and the next stalled check has run (at most WORKER_STALLED_INTERVAL_MS later): 15 s +
   * 5 s, against the issue's 35 s (docs/decisions.md, "Worker recovery time"). BullMQ renews a
   * held lock every quarter to half of it, so a live job keeps its lock through an event-loop
   * stall of 7.5 s or more, however long the job runs.
   */
  WORKER_LOCK_DURATION_MS: z.coerce.number().int().min(1000).default(15_000),
  WORKER_STALLED_INTERVAL_MS: z.coerce.number().int().min(1000).default(5_000),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(30_000),
  /** How often a worker re-creates its queues' job schedulers besides on every Redis reconnection (a Redis flushed or restarted empty loses them). */
  SCHEDULE_RECONCILE_INTERVAL_MS: z.coerce.number().int().min(100).default(300_000),
  /**
   * Connections of each of a process's database pools, opened on demand: two on the primary (Prisma's, and the
   * driver pool behind the hot write paths) and, with DATABASE_REPLICA_URL, one on the replica. N API + M worker
   * processes hold at most (N + M) x 2 x DB_POOL_SIZE on the primary and (N + M) x DB_POOL_SIZE on the replica,
   * which must stay under each server's max_connections (docs/deployment.md, "Connection budget").
   */
  DB_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(5),
  /** How long a request waits for a pooled database connection before it fails with 500 db_error. */
  DB_ACQUIRE_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(2000),
  /** A database connection silent this long (a hung query or server) is closed and its request fails. */
  DB_QUERY_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(15_000),
  /** When set, /metrics answers only `Authorization: Bearer <METRICS_TOKEN>` (401 otherwise); unset, it is open, except with NODE_ENV=production (METRICS_ALLOW). */
  METRICS_TOKEN: z.string().min(16).optional(),
  /** With NODE_ENV=production and no METRICS_TOKEN, the client addresses /metrics answers (403 to others). */
  METRICS_ALLOW: addressList.default(["loopback"]),
  /** Failed /auth/login attempts per login, and per client address, within the window; past either, 429 until the window ends. */
  LOGIN_FAILURES_PER_LOGIN: z.coerce.number().int().min(1).default(5),
  LOGIN_FAILURES_PER_IP: z.coerce.number().int().min(1).default(20),
  LOGIN_FAILURE_WINDOW_SECONDS: z.coerce.number().int().min(1).default(900),
  /** Acquirer webhook deliveries allowed per client IP per minute; 0 turns the limit off. Generous: an acquirer sends a few a minute. */
  WEBHOOK_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(0).default(300),
  /** The acquirer's webhook signing key: when set, a delivery needs a valid `Webhook-Signature` (NMI's), else 401 and nothing stored. */
  ACQUIRER_SIGNING_KEY: z.string().trim().min(1).optional(),
  /** Carrier code of orders that name none (spec 1, 2.1 `<DEFAULT_CARRIER_CODE>`). */
  DEFAULT_CARRIER_CODE: z.string().trim().min(1).max(20).default("FEDEX"),
  // External systems (design section 9): unset means the feature reports itself unconfigured.
  ERP_BASE_URL: optionalUrl,
  /** A static bearer token; or, instead, the four OAuth 2.0 client-credentials settings below (docs/erp-api.md, "Authentication"). */
  ERP_TOKEN: z.string().optional(),
  ERP_TOKEN_URL: optionalUrl,
  ERP_CLIENT_ID: z.string().optional(),
  ERP_CLIENT_SECRET: z.string().optional(),
  ERP_SCOPE: z.string().optional(),
  /** The payment gateway's query API (NMI's is https://secure.nmi.com/api/query.php); unset, disputes fail as "not configured" rather than reach a real gateway by default. */
  GATEWAY_QUERY_URL: optionalUrl,
  /** Pages of 1,000 transactions a dispute's gateway query reads at most; an answer with more fails the dispute, saying so, rather than match on part of it. */
  GATEWAY_QUERY_MAX_PAGES: z.coerce.number().int().min(1).max(1000).default(20),
  /** The fraud service's API root (Signifyd's is https://api.signifyd.com); unset, chargeback submissions fail as "not configured". */
  FRAUD_API_URL: optionalUrl,
  SMTP_URL: urlWithScheme("smtp", "smtps").optional(),
  MAIL_FROM: z.string().optional(),
  /** The operators' address (with SMTP_URL): alerts whose own recipients or channel are missing come here, and to CHAT_WEBHOOK_URL. */
  ALERT_EMAIL_TO: z.string().optional(),
  /** Attempts per recipient of an alert's e-mail, SMS, browser or chat delivery before it becomes an operator alert. */
  ALERT_DELIVERY_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(5),
  /** The wait before an alert delivery's second attempt, doubling for each one after. */
  ALERT_DELIVERY_BACKOFF_MS: z.coerce.number().int().min(0).max(86_400_000).default(60_000),
  AI_BASE_URL: httpUrl.default("https://generativelanguage.googleapis.com"),
  AI_API_KEY: z.string().optional(),
  /** Each provider request's time limit. */
  AI_TIMEOUT_MS: z.coerce.number().int().min(100).max(300_000).default(30_000),
  /** First wait of spec 2's provider retries (1 s, 2 s, then 4 s before the next model); tests shorten it. */
  AI_RETRY_BASE_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
  /** Pinecone's data plane (design 10.5): the index host, e.g. https://kb-abc123.svc.us-east-1.pinecone.io; unset (and no vector_index_host option) means the embedded index. */
  PINECONE_HOST: optionalUrl,
  PINECONE_API_KEY: z.string().optional(),
  PINECONE_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
  /** Design 10.5: assistant chat streams one staff member may have open at once. */
  CHAT_STREAMS_PER_STAFF: z.coerce.number().int().min(1).max(20).default(2),
  /** Notification streams (/scp/ajax.php/notifications/stream) one staff member may hold open at once; past it, 429. */
  NOTIFICATION_STREAMS_PER_STAFF: z.coerce.number().int().min(1).max(50).default(5),
  // Within the streams' 60 s slot lease; shorter behind a proxy that closes quieter connections sooner.
  NOTIFICATION_STREAM_HEARTBEAT_SECONDS: z.coerce.number().int().min(1).max(50).default(20),
  /** The ticket system's base URL, for links in the assistant's answers (e.g. https://desk.example); unset gives relative links. */
  TICKET_SYSTEM_URL: optionalUrl,
  /** Harvest's OAuth host and API (design 10.4); fakes stand in for both in tests. */
  HARVEST_ID_URL: httpUrl.default("https://id.getharvest.com"),
  HARVEST_API_URL: httpUrl.default("https://api.harvestapp.com"),
  /** Spec 2, 8: the pause between provider calls of /time_sync (10 s); tests shorten it. */
  TIME_SYNC_DELAY_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
  /**
   * When the platform runs its own time sync, milestone checks and knowledge-document refresh (cron
   * patterns, UTC, five fields or six with seconds): docs/operations.md. The endpoints stay for an
   * outside cron; a run finds little to do after another.
   */
  TIME_SYNC_SCHEDULE: cronPattern.default("5 * * * *"),
  MILESTONES_SCHEDULE: cronPattern.default("20 * * * *"),
  KNOWLEDGE_REFRESH_SCHEDULE: cronPattern.default("30 3 * * *"),
  /** Design 10.8: how long a scheduled endpoint waits for its job before answering 202 with the job id. */
  SCHEDULED_WAIT_SECONDS: z.coerce.number().int().min(0).max(3600).default(900),
  /**
   * When set, the scheduled endpoints (/platform/v1/*) answer only `Authorization: Bearer <CRON_TOKEN>`
   * (401 otherwise) and say why a run failed; unset, they are public as spec 2 (4.2) has them, with generic answers.
   */
  CRON_TOKEN: z.string().min(16).optional(),
  /** Calls of the scheduled endpoints allowed per client address per minute (all of them together); 0 turns the limit off. */
  SCHEDULED_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(0).default(30),
  /** Milestone alerts and operator alerts: a Slack or Google Chat incoming webhook (`{text}`); unset sends milestone alerts to ALERT_EMAIL_TO. */
  CHAT_WEBHOOK_URL: optionalUrl,
  /** Twilio's Messages API or one speaking it (CRITICAL alert SMS); unset SID, token or sender skips SMS. */
  SMS_API_URL: httpUrl.default("https://api.twilio.com"),
  SMS_ACCOUNT_SID: z.string().optional(),
  SMS_AUTH_TOKEN: z.string().optional(),
  /** E.164 sender number, or a Messaging Service SID (MG...). */
  SMS_FROM: z.string().optional(),
  /** The managed sites' CDN (update_cdn): a Cloudflare-style API (Cloudflare's is https://api.cloudflare.com/client/v4), `POST /zones/{zone}/purge_cache` with each site's Bearer token; unset, update_cdn says it is not configured. */
  CDN_API_URL: optionalUrl,
  /** A search-console-style URL inspection API (check_indexed) and its Bearer token; unset, check_indexed says it is not configured. */
  INDEX_API_URL: optionalUrl,
  INDEX_API_TOKEN: z.string().optional(),
  /** The Chromium (or Chrome) executable take_screenshot drives headless; unset, screenshots are refused. */
  CHROME_PATH: z.string().optional(),
  /** The most one screenshot may take, browser start to PNG; a page still loading then is captured as it is. */
  SCREENSHOT_TIMEOUT_MS: z.coerce.number().int().min(1000).max(300_000).default(30_000),
  /**
   * Retention (docs/operations.md, "Retention"): when each domain's daily purge runs (cron, UTC), how many rows one
   * statement deletes (a short transaction each, so a purge never holds locks for long), and how many days each
   * kind of record is kept. Business records (orders, disputes, chargebacks, shipments, time entries) are kept for good.
   */
  RETENTION_SCHEDULE: cronPattern.default("40 3 * * *"),
  RETENTION_BATCH_SIZE: z.coerce.number().int().min(1).max(100_000).default(1000),
  /** Processed webhook deliveries (webhook_events); unprocessed ones stay until processed. */
  RETENTION_WEBHOOK_EVENTS_DAYS: retentionDays.default(30),
  /** Finished sync runs (sync_runs); a site's latest run of each kind and outcome stays whatever its age. */
  RETENTION_SYNC_RUNS_DAYS: retentionDays.default(90),
  /** Recorded sync errors (sync_errors). */
  RETENTION_SYNC_ERRORS_DAYS: retentionDays.default(90),
  /** Stock pushed per item and run (item_history): spec 1, section 8 says 3 days. */
  RETENTION_ITEM_HISTORY_DAYS: retentionDays.default(3),
  /** Staff browser notifications (staff_notifications), read or not. */
  RETENTION_NOTIFICATIONS_DAYS: retentionDays.default(30),
  /** Operator alerts delivered or dismissed (operator_alerts); pending and undelivered ones stay. */
  RETENTION_OPERATOR_ALERTS_DAYS: retentionDays.default(90),
  /** Urgency snapshots (ai_snapshots, a ticket's latest stays) and analysis history (ai_history; CRITICAL alert rows stay). */
  RETENTION_SNAPSHOTS_DAYS: retentionDays.default(180),
  /** The changes feed to the ticket system (ticket_changes): read by its cursor within minutes. */
  RETENTION_TICKET_CHANGES_DAYS: retentionDays.default(30),
  /** Audit rows of staff directory changes (staff_recipient_changes). */
  RETENTION_AUDIT_DAYS: retentionDays.default(365),
  /** Assistant conversations (and their messages) not touched for this long. */
  RETENTION_CONVERSATIONS_DAYS: retentionDays.default(365),
  /** Report runs and their CSV files in storage. */
  RETENTION_REPORTS_DAYS: retentionDays.default(365),
  /**
   * Finished jobs in Redis (every queue; BullMQ drops them, no purge job): what Bull Board shows and Redis holds.
   * Each queue keeps its completed jobs this long and at most this many, the oldest dropped first; failed ones likewise.
   * At least one: a caller reads a job's result once it has finished.
   */
  RETENTION_COMPLETED_JOBS_DAYS: retentionDays.default(1),
  RETENTION_COMPLETED_JOBS_MAX: finishedJobsMax.default(10_000),
  RETENTION_FAILED_JOBS_DAYS: retentionDays.default(7),
  RETENTION_FAILED_JOBS_MAX: finishedJobsMax.default(10_000),
  /**
   * Entries of each queue's event stream (BullMQ's: added, active, completed, ...), which listeners waiting on a
   * job read; trimmed to about this many as new ones come. About 200 bytes each: what Redis holds beside the jobs.
   */
  RETENTION_QUEUE_EVENTS_MAX: z.coerce.number().int().min(100).max(1_000_000).default(10_000),
  STORAGE_DIR: z.string().default("storage"),
  S3_ENDPOINT: optionalUrl,
  S3_BUCKET: z.string().optional(),
  S3_REGION: z.string().optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
});

export type Config = z.output<typeof configSchema>;

/**
 * Which process is reading the configuration: each validates the settings it
 * uses. A migration uses the database alone; only the API serves HTTP.
 */
export type ProcessKind = "api" | "worker" | "cli" | "migrate";
/** The processes that use the whole configuration. */
type FullProcessKind = Exclude<ProcessKind, "migrate">;

/** The settings `pnpm db:migrate` and `pnpm db:check` use. */
export type MigrateConfig = Pick<Config, "DATABASE_URL">;

type Rule = (config: Config, ctx: z.RefinementCtx<Config>) => void;

/** The API speaks plain HTTP; only the TLS proxy in front of it can say a request came over HTTPS. */
const httpsNeedsProxy: Rule = (config, ctx) => {
  if (httpsRequired(config) && !config.TRUST_PROXY) {
    ctx.addIssue({
      code: "custom",
      path: ["REQUIRE_HTTPS"],
      message: `is on${config.REQUIRE_HTTPS === undefined ? " (the default when NODE_ENV=production)" : ""} but TRUST_PROXY is off: set TRUST_PROXY to the number of proxies in front of the API (e.g. 1) or their addresses, behind your TLS proxy (it sends X-Forwarded-Proto), or REQUIRE_HTTPS=false`,
    });
  }
};

/** S3 settings without a bucket would silently fall back to the local directory. */
const s3Complete: Rule = (config, ctx) => {
  const without = (["S3_ENDPOINT", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY"] as const).find((name) => config[name]);
  if (without && !config.S3_BUCKET) ctx.addIssue({ code: "custom", path: ["S3_BUCKET"], message: `is required when ${without} is set` });
  if (Boolean(config.S3_ACCESS_KEY_ID) !== Boolean(config.S3_SECRET_ACCESS_KEY)) {
    ctx.addIssue({ code: "custom", path: [config.S3_ACCESS_KEY_ID ? "S3_SECRET_ACCESS_KEY" : "S3_ACCESS_KEY_ID"], message: "S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together" });
  }
};

/** ERP credentials are a static token or a complete client-credentials set, never half of one or both. */
const ERP_OAUTH = ["ERP_TOKEN_URL", "ERP_CLIENT_ID", "ERP_CLIENT_SECRET", "ERP_SCOPE"] as const;
const erpCredentials: Rule = (config, ctx) => {
  const set = ERP_OAUTH.filter((name) => config[name]);
  if (set.length === 0) return;
  for (const name of ERP_OAUTH.filter((name) => !config[name])) {
    ctx.addIssue({ code: "custom", path: [name], message: `is required when ${set[0]} is set (ERP OAuth client credentials: ${ERP_OAUTH.join(", ")})` });
  }
  if (config.ERP_TOKEN) ctx.addIssue({ code: "custom", path: ["ERP_TOKEN"], message: "set either ERP_TOKEN or the ERP OAuth client credentials, not both" });
};

function withRules(rules: Rule[]) {
  return configSchema.superRefine((config, ctx) => {
    for (const rule of rules) rule(config, ctx);
  });
}

/** What each process checks: the rules of what it runs (the API serves HTTP; the API and the worker store objects). */
const SCHEMAS = {
  api: withRules([httpsNeedsProxy, s3Complete, erpCredentials]),
  worker: withRules([s3Complete, erpCredentials]),
  cli: withRules([erpCredentials]),
  migrate: configSchema.pick({ DATABASE_URL: true }),
};

/** Whether plain-HTTP requests are refused: REQUIRE_HTTPS, else on in production. */
export function httpsRequired(config: Pick<Config, "REQUIRE_HTTPS" | "NODE_ENV">): boolean {
  return config.REQUIRE_HTTPS ?? config.NODE_ENV === "production";
}

/** Raised when the environment does not parse; the message names every bad variable. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

/**
 * Parses an environment for one kind of process (the API's rules when none is
 * named). Empty strings count as unset, as in most .env tooling.
 */
export function parseConfig(env: NodeJS.ProcessEnv, kind?: FullProcessKind): Config;
export function parseConfig(env: NodeJS.ProcessEnv, kind: "migrate"): MigrateConfig;
export function parseConfig(env: NodeJS.ProcessEnv, kind: ProcessKind = "api"): Config | MigrateConfig {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ""));
  const result = SCHEMAS[kind].safeParse(cleaned);
  if (!result.success) {
    throw new ConfigError(
      result.error.issues.map((issue) => {
        const name = issue.path.join(".");
        const detail = issue.code === "invalid_type" && cleaned[name] === undefined ? "is required" : issue.message;
        return `${name}: ${detail}`;
      }),
    );
  }
  return result.data;
}

let cached: { kind: FullProcessKind; config: Config } | undefined;
let envFileLoaded = false;

function loadEnvFile(): void {
  if (envFileLoaded) return;
  envFileLoaded = true;
  if (existsSync(ROOT_ENV_FILE)) process.loadEnvFile(ROOT_ENV_FILE);
}

/**
 * The process configuration, read once by its entry point, which names its
 * kind; later calls without a kind get that same configuration. `.env` at the
 * repository root fills in what the environment lacks.
 */
export function getConfig(kind?: FullProcessKind): Config;
export function getConfig(kind: "migrate"): MigrateConfig;
export function getConfig(kind?: ProcessKind): Config | MigrateConfig {
  return read(kind);
}

function read(kind?: ProcessKind): Config | MigrateConfig {
  loadEnvFile();
  if (kind === "migrate") return parseConfig(process.env, kind);
  if (!cached || (kind && kind !== cached.kind)) {
    const parsedAs = kind ?? "api";
    cached = { kind: parsedAs, config: parseConfig(process.env, parsedAs) };
  }
  return cached.config;
}

export function workerConcurrency(config: Config, queue: QueueName): number {
  const key = `WORKER_CONCURRENCY_${queue.toUpperCase()}` as keyof Config;
  return (config[key] as number | undefined) ?? config.WORKER_CONCURRENCY;
}

/** For process entry points: a bad environment stops start-up with a message naming each variable. */
export function getConfigOrExit(kind: FullProcessKind): Config;
export function getConfigOrExit(kind: "migrate"): MigrateConfig;
export function getConfigOrExit(kind: ProcessKind): Config | MigrateConfig {
  try {
    return read(kind);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    process.exit(78); // EX_CONFIG
  }
}
