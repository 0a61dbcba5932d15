import { execFile, spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, copyFile, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import mariadb from "mariadb";
import { closedPort } from "../../../test/support/api.ts";
import { ROOT } from "../../../test/support/processes.ts";
import { until } from "../../../test/support/wait.ts";

const run = promisify(execFile);

/** The vendored osTicket: beside the clone in CI (`../shared/vendor`), or where OSTICKET_TARBALL says. */
export const TARBALL = process.env.OSTICKET_TARBALL ?? resolve(ROOT, "../shared/vendor/osticket-1.18.1.tar.gz");
export const ADMIN = { username: "ada", password: "Adm1n-Passw0rd-Test", email: "ada@desk.example" };
const API_KEY = "0A1B2C3D4E5F60718293A4B5C6D7E8F9";
const CONFIGURE = join(ROOT, "integrations/osticket/bin/configure.php");

export async function requirePhp(): Promise<void> {
  try {
    await run("php", ["-r", "exit(extension_loaded('mysqli') && extension_loaded('curl') ? 0 : 1);"]);
  } catch {
    throw new Error("pnpm test:osticket needs PHP 8.2 with mysqli and curl (apt-get install php-cli php-mysql php-curl php-mbstring php-xml php-intl); .ci/run installs them");
  }
  if (!existsSync(TARBALL)) throw new Error(`osTicket tarball not found at ${TARBALL} (set OSTICKET_TARBALL)`);
}

/** The database server the platform's tests use; osTicket gets its own database on it. */
function databaseParts() {
  const url = new URL(process.env.TEST_DATABASE_URL ?? "mysql://mw:mw@127.0.0.1:3306/mw_test");
  return { host: url.hostname, port: Number(url.port || 3306), user: decodeURIComponent(url.username), password: decodeURIComponent(url.password) };
}

// What osTicket's api/.htaccess does under Apache: /api/tickets.json reaches api/http.php.
const ROUTER = `<?php
$root = getenv('OST_ROOT');
$path = parse_url($_SERVER['REQUEST_URI'], PHP_URL_PATH);
if (preg_match('#^/api/(?!http\\.php)(?!cron\\.php)(.+)$#', $path, $m) && !is_file($root.$path)) {
    $_SERVER['PATH_INFO'] = '/'.$m[1];
    $_SERVER['SCRIPT_NAME'] = '/api/http.php';
    $_SERVER['SCRIPT_FILENAME'] = $root.'/api/http.php';
    chdir($root.'/api');
    require $root.'/api/http.php';
    return true;
}
return false;
`;

/** A throw-away osTicket: unpacked from the tarball, installed by its own web installer, served by `php -S`. */
export class OsTicket {
  readonly database = `ost_test_${process.pid}`;
  dir = "";
  url = "";
  private server?: ChildProcess;
  private pool?: mariadb.Pool;

  get root(): string {
    return join(this.dir, "src");
  }

  async install(): Promise<void> {
    this.dir = await mkdtemp(join(tmpdir(), "osticket-"));
    await run("tar", ["-xzf", TARBALL, "-C", this.dir]);
    // Under php -S, osTicket takes every request for a command-line run (and reads API bodies from stdin).
    const osticket = join(this.root, "include/class.osticket.php");
    const source = await readFile(osticket, "utf8");
    const patched = source.replace("substr(php_sapi_name(), 0, 3), 'cli'", "php_sapi_name(), 'cli'");
    if (patched === source) throw new Error("osTicket's is_cli() check was not found to patch");
    await writeFile(osticket, patched);
    await copyFile(join(this.root, "include/ost-sampleconfig.php"), join(this.root, "include/ost-config.php"));
    await chmod(join(this.root, "include/ost-config.php"), 0o666);
    await writeFile(join(this.dir, "router.php"), ROUTER);
    await writeFile(join(this.dir, "sendmail.sh"), `#!/bin/sh\ncat >> ${join(this.dir, "mail.log")}\n`, { mode: 0o755 });

    const db = databaseParts();
    this.pool = mariadb.createPool({ ...db, connectionLimit: 2 });
    await this.pool.query(`DROP DATABASE IF EXISTS \`${this.database}\``);
    await this.pool.query(`CREATE DATABASE \`${this.database}\``);
    await this.start();

    const form = new URLSearchParams({
      s: "install",
      name: "Test Desk",
      email: "support@desk.example",
      lang_id: "en_US",
      fname: "Ada",
      lname: "Admin",
      admin_email: ADMIN.email,
      username: ADMIN.username,
      passwd: ADMIN.password,
      passwd2: ADMIN.password,
      prefix: "ost_",
      dbhost: `${db.host}:${db.port}`,
      dbname: this.database,
      dbuser: db.user,
      dbpass: db.password,
      timezone: "UTC",
    });
    const res = await fetch(`${this.url}/setup/install.php`, { method: "POST", body: form, signal: AbortSignal.timeout(60_000) });
    const page = await res.text();
    if (!page.includes("Congratulations")) throw new Error(`osTicket install failed:\n${page.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ").slice(0, 2000)}`);
    await rm(join(this.root, "setup"), { recursive: true });
    // No DNS here: osTicket would refuse every e-mail address it cannot resolve.
    await this.query("INSERT INTO ost_config (namespace, `key`, value) VALUES ('core', 'verify_email_addrs', '0') ON DUPLICATE KEY UPDATE value = '0'");
    await this.query("INSERT INTO ost_api_key (isactive, ipaddr, apikey, can_create_tickets, can_exec_cron, notes, updated, created) VALUES (1, '127.0.0.1', ?, 1, 0, 'tests', NOW(), NOW())", [API_KEY]);
  }

  private async start(): Promise<void> {
    const port = await closedPort();
    this.url = `http://127.0.0.1:${port}`;
    // Its own process group (detached): php -S with workers is several processes, stopped together.
    this.server = spawn("php", ["-d", `sendmail_path=${join(this.dir, "sendmail.sh")}`, "-d", "display_errors=stderr", "-S", `127.0.0.1:${port}`, "-t", this.root, join(this.dir, "router.php")], {
      env: { ...process.env, OST_ROOT: this.root, PHP_CLI_SERVER_WORKERS: "4" },
      stdio: "ignore",
      detached: true,
    });
    await until(
      async () => (await fetch(`${this.url}/robots.txt`).catch(() => null)) !== null,
      () => "php -S to listen",
      10_000,
    );
  }

  /** osTicket's own database (the plugin's outbox lives there). */
  async query<T = Record<string, unknown>[]>(sql: string, values: unknown[] = []): Promise<T> {
    const conn = await this.pool!.getConnection();
    try {
      await conn.query(`USE \`${this.database}\``);
      return (await conn.query({ sql, bigIntAsNumber: true, decimalAsNumber: true }, values)) as T;
    } finally {
      await conn.release();
    }
  }

  /** As an operator installs it: the agent signing secret made by the platform's own CLI (this run's test database). */
  async configure(platformUrl: string, key: string, extra: string[] = []): Promise<string> {
    const platformCli = `pnpm --dir '${ROOT.replace(/'/g, "'\\''")}' cli`;
    const { stdout } = await run("php", [CONFIGURE, this.root, "--url", platformUrl, "--key", key, "--platform-cli", platformCli, ...extra], { timeout: 180_000 });
    return stdout;
  }

  /** `configure.php --sync` with the stored settings: the staff directory, and the recent tickets with --backfill-days. */
  async sync(extra: string[] = []): Promise<string> {
    const { stdout } = await run("php", [CONFIGURE, this.root, "--sync", ...extra], { timeout: 300_000 });
    return stdout;
  }

  /** osTicket as it was before the plugin: three agents (seed-history.php) and `count` tickets; answers their ids and numbers. */
  async seedHistory(count: number): Promise<{ agents: Record<"pia" | "max" | "old", number>; tickets: string[] }> {
    const { stdout } = await run("php", [join(ROOT, "integrations/osticket/test/seed-history.php"), this.root, String(count)], { timeout: 300_000, maxBuffer: 16 * 1024 * 1024 });
    return JSON.parse(stdout.trim().split("\n").at(-1)!) as { agents: Record<"pia" | "max" | "old", number>; tickets: string[] };
  }

  /**
   * Starts osTicket's ticket and thread entry ids at `base`: the platform's
   * mirror keys them by osTicket id, and test files of one run share its
   * database, so each osTicket of a run takes ids of its own.
   */
  async startIdsAt(base: number): Promise<void> {
    for (const table of ["ost_ticket", "ost_thread_entry"]) await this.query(`ALTER TABLE ${table} AUTO_INCREMENT = ${Math.trunc(base)}`);
  }

  /** The plugin's breaker: 0 when closed, else the unix time its pause ends. */
  async breakerOpenUntil(): Promise<number> {
    const [row] = await this.query<{ value: string }[]>("SELECT value FROM ost_platform_bridge_state WHERE name = 'breaker_open_until'");
    return Number(row?.value ?? 0);
  }

  async setBreakerOpenUntil(unixTime: number): Promise<void> {
    await this.query("INSERT INTO ost_platform_bridge_state (name, value) VALUES ('breaker_open_until', ?) ON DUPLICATE KEY UPDATE value = VALUES(value)", [String(unixTime)]);
  }

  /** One run of osTicket's cron, as a system crontab runs it. */
  async cron(): Promise<void> {
    await run("php", ["cron.php"], { cwd: join(this.root, "api"), timeout: 60_000 });
  }

  /** `POST /api/tickets.json` with the API key; answers the ticket number and how long osTicket took. */
  async createTicket(ticket: Record<string, unknown>): Promise<{ status: number; number: string; ms: number }> {
    const started = performance.now();
    const res = await fetch(`${this.url}/api/tickets.json`, {
      method: "POST",
      headers: { "x-api-key": API_KEY, "content-type": "application/json" },
      body: JSON.stringify({ name: "Ann Lee", email: "ann@acme.example", ...ticket }),
    });
    const number = (await res.text()).trim();
    return { status: res.status, number, ms: performance.now() - started };
  }

  async ticketId(number: string): Promise<number> {
    const [row] = await this.query<{ ticket_id: number }[]>("SELECT ticket_id FROM ost_ticket WHERE number = ?", [number]);
    if (!row) throw new Error(`no osTicket ticket ${number}`);
    return row.ticket_id;
  }

  async stop(): Promise<void> {
    if (this.server?.pid) {
      try {
        process.kill(-this.server.pid, "SIGTERM");
      } catch {
        // already gone
      }
    }
    if (this.pool) {
      await this.pool.query(`DROP DATABASE IF EXISTS \`${this.database}\``).catch(() => {});
      await this.pool.end();
    }
    if (this.dir && !process.env.KEEP_OSTICKET) await rm(this.dir, { recursive: true, force: true });
  }
}

const csrfIn = (html: string) => /name="__CSRFToken__" value="([^"]+)"|<meta name="csrf_token" content="([^"]+)"/.exec(html)?.slice(1).find(Boolean);

/** An agent in osTicket's staff panel: a browser's cookie, the CSRF token of the last page. */
export class Agent {
  private cookies = new Map<string, string>();
  csrf = "";

  constructor(private readonly desk: OsTicket) {}

  async request(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size) headers.set("cookie", [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; "));
    const res = await fetch(`${this.desk.url}${path}`, { ...init, headers, redirect: "manual" });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const eq = pair!.indexOf("=");
      this.cookies.set(pair!.slice(0, eq), pair!.slice(eq + 1));
    }
    return res;
  }

  async page(path: string): Promise<string> {
    const res = await this.request(path);
    const html = await res.text();
    this.csrf = csrfIn(html) ?? this.csrf;
    return html;
  }

  async post(path: string, fields: Record<string, string>): Promise<{ status: number; html: string; location: string | null }> {
    const res = await this.request(path, { method: "POST", body: new URLSearchParams({ __CSRFToken__: this.csrf, ...fields }) });
    const html = await res.text();
    this.csrf = csrfIn(html) ?? this.csrf;
    return { status: res.status, html, location: res.headers.get("location") };
  }

  async login(username = ADMIN.username, password = ADMIN.password): Promise<void> {
    await this.page("/scp/login.php");
    const answer = await this.post("/scp/login.php", { do: "scplogin", userid: username, passwd: password });
    if (answer.status !== 302) throw new Error(`agent login failed (${answer.status})`);
    await this.page("/scp/index.php");
  }

  /** What an agent's browser does to reply: open the ticket, take its edit lock, post the reply form. */
  async reply(ticketId: number, text: string): Promise<void> {
    await this.page(`/scp/tickets.php?id=${ticketId}`);
    const lock = await this.request(`/scp/ajax.php/lock/ticket/${ticketId}`, { method: "POST", headers: { "x-csrftoken": this.csrf, "x-requested-with": "XMLHttpRequest" } });
    const { code } = (await lock.json()) as { code?: string };
    if (!code) throw new Error(`no edit lock on ticket ${ticketId} (${lock.status})`);
    const answer = await this.post(`/scp/tickets.php?id=${ticketId}`, { id: String(ticketId), a: "reply", lockCode: code, response: text, reply_status_id: "", emailreply: "0" });
    if (answer.status !== 302 && !/Reply posted successfully/i.test(answer.html)) throw new Error(`reply refused: ${/<div id="msg_error">([^<]*)/.exec(answer.html)?.[1] ?? answer.status}`);
  }

  /** A custom field's value as the ticket page shows it to agents. */
  async field(ticketId: number, label: string): Promise<string | null> {
    const html = await this.page(`/scp/tickets.php?id=${ticketId}`);
    const escaped = label.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    const match = new RegExp(`${escaped}:?\\s*</t[hd]>\\s*<td[^>]*>([\\s\\S]*?)</td>`).exec(html);
    if (!match) return null;
    const text = match[1]!.replace(/<[^>]+>/g, "").replace(/&nbsp;/g, " ").trim();
    // osTicket shows an unset field as "—Empty—".
    return text === "&mdash;Empty&mdash;" ? "" : text;
  }
}
