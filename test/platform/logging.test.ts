import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PassThrough } from "node:stream";
import { stripVTControlCharacters } from "node:util";
import { createLogger, redact, writerTag, type Config } from "@mw/platform";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { testEnv } from "../support/env.ts";
import { ROOT, spawnEntry } from "../support/processes.ts";
import { until } from "../support/wait.ts";

const SECRET = "s3cr3t-value-that-must-not-leak";

async function flush(logger: ReturnType<typeof createLogger>): Promise<void> {
  await new Promise<void>((resolve) => {
    logger.on("finish", () => setTimeout(resolve, 50));
    logger.end();
  });
}

describe("logging", () => {
  it("writes JSON lines to a daily file and redacts secrets by key and in text", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "mw-logs-"));
    const logger = createLogger("unit", { LOG_DIR: dir, LOG_LEVEL: "info", LOG_STDOUT: false });
    logger.info("site saved", {
      site: { name: "Shop", api_credentials: { client_id: "abc", access_token: SECRET }, fraud_api_key: SECRET },
      headers: { authorization: `Basic ${SECRET}` },
    });
    logger.info(`calling gateway with security_key=${SECRET}&start_date=20260101`);
    logger.error("upstream failed", { error: new Error(`https://user:${SECRET}@erp.example/api failed`) });
    await flush(logger);

    const files = readdirSync(dir).filter((name) => name.endsWith(".log"));
    // One file per writing process: two processes of one name never rotate the same file.
    expect(files).toEqual([`unit-${new Date().toISOString().slice(0, 10)}.${writerTag()}.log`]);
    // The file transport writes after the logger's own stream has finished; on a loaded machine that takes a while.
    await until(() => readFileSync(path.join(dir, files[0]!), "utf8").split("\n").length > 3, () => "the three log lines on disk", 5000);
    const text = readFileSync(path.join(dir, files[0]!), "utf8");
    expect(text).not.toContain(SECRET);
    const lines = text.trim().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatchObject({
      level: "info",
      message: "site saved",
      service: "unit",
      site: { name: "Shop", api_credentials: "[REDACTED]", fraud_api_key: "[REDACTED]" },
      headers: { authorization: "[REDACTED]" },
    });
    expect(lines[1]!.message).toBe("calling gateway with security_key=[REDACTED]&start_date=20260101");
    expect(JSON.stringify(lines[2])).toContain("user:[REDACTED]@erp.example");
  });

  it("keeps non-secret members and leaves empty secrets visible as empty", () => {
    expect(redact({ password: "", token: null, order_number: "A-1", nested: [{ secret: "x" }] })).toEqual({
      password: "",
      token: null,
      order_number: "A-1",
      nested: [{ secret: "[REDACTED]" }],
    });
  });

  it("redacts secret-named members inside an error's message, as Prisma's validation errors print the data", () => {
    const error = new Error('Invalid `prisma.site.update()` invocation:\n  data: {\n    name: "Shop",\n    api_secret: "cs_live_123",\n    access_token: "tok\\"en"\n  }');
    const { message, stack } = redact(error) as { message: string; stack: string };
    for (const text of [message, stack]) {
      expect(text).toContain('name: "Shop"');
      expect(text).toContain('api_secret: "[REDACTED]"');
      expect(text).toContain('access_token: "[REDACTED]"');
      expect(text).not.toMatch(/cs_live_123|tok\\"en/);
    }
  });

  it("falls back to stderr when the log directory cannot be written", async () => {
    const blocker = path.join(mkdtempSync(path.join(tmpdir(), "mw-logs-")), "not-a-dir");
    writeFileSync(blocker, "a file where the log directory should be");
    const child = spawnEntry("packages/worker/src/main.ts", ["--drain", "--notifications-max-jobs", "0"], {
      LOG_DIR: path.join(blocker, "logs"),
      LOG_STDOUT: "true",
    });
    const stderr: string[] = [];
    child.child.stderr!.on("data", (chunk: Buffer) => stderr.push(chunk.toString()));
    const { code } = await child.exited();
    expect(code).toBe(0);
    expect(stderr.join("")).toMatch(/log directory not writable, logging to stderr only/);
    expect(stderr.join("")).toMatch(/"message":"drain finished"/);
  });

  it("drops a line below LOG_LEVEL before winston builds it, on the logger and its children (hot paths log at debug)", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "mw-logs-"));
    const logger = createLogger("unit", { LOG_DIR: dir, LOG_LEVEL: "info", LOG_STDOUT: false });
    const write = vi.spyOn(logger, "write");
    logger.debug("per delivery", { webhook_id: 1 });
    logger.child({ queue: "disputes" }).debug("per job");
    expect(write).not.toHaveBeenCalled();
    logger.child({ queue: "disputes" }).info("kept");
    expect(write).toHaveBeenCalledTimes(1);
    await flush(logger);
    const debugLogger = createLogger("unit", { LOG_DIR: dir, LOG_LEVEL: "debug", LOG_STDOUT: false });
    const debugWrite = vi.spyOn(debugLogger, "write");
    debugLogger.debug("shown at debug");
    expect(debugWrite).toHaveBeenCalledTimes(1);
    await flush(debugLogger);
  });
});

/** A stand-in for stdout that keeps what was written; `terminal` makes it pass for a TTY. */
function screen(terminal: boolean): PassThrough & { isTTY?: boolean; text(): string } {
  const stream = new PassThrough() as PassThrough & { isTTY?: boolean; text(): string };
  let written = "";
  stream.on("data", (chunk: Buffer) => (written += chunk.toString()));
  if (terminal) stream.isTTY = true;
  stream.text = () => written;
  return stream;
}

async function logOnce(terminal: boolean, logFormat?: Config["LOG_FORMAT"]): Promise<string> {
  const stdout = screen(terminal);
  const logger = createLogger("unit", { LOG_DIR: mkdtempSync(path.join(tmpdir(), "mw-logs-")), LOG_LEVEL: "info", LOG_STDOUT: true, LOG_FORMAT: logFormat }, { stdout, stderr: stdout });
  logger.warn("site saved", {
    site_id: 7,
    note: `calling with api_key=${SECRET}`,
    account: { client_id: "abc", access_token: SECRET },
    error: new Error(`https://user:${SECRET}@erp.example failed`),
  });
  await until(() => stdout.text().includes("\n"), () => "the console line");
  logger.close();
  return stdout.text();
}

describe("terminal lines (LOG_FORMAT)", () => {
  let noColor: string | undefined;
  beforeEach(() => {
    noColor = process.env.NO_COLOR;
    delete process.env.NO_COLOR;
  });
  afterEach(() => {
    if (noColor !== undefined) process.env.NO_COLOR = noColor;
  });

  it("prints one line to read per entry on a terminal, level in colour, fields as key=value, secrets redacted", async () => {
    const text = await logOnce(true);
    expect(text).not.toContain(SECRET);
    expect(text.split("\n")).toHaveLength(2);
    expect(text).toContain("\u001b[33mWARN ");
    expect(stripVTControlCharacters(text)).toMatch(
      /^\d\d:\d\d:\d\d\.\d{3} WARN {2}unit site saved site_id=7 note="calling with api_key=\[REDACTED\]" account=\{"client_id":"abc","access_token":"\[REDACTED\]"\} error="https:\/\/user:\[REDACTED\]@erp\.example failed"\n$/,
    );
  });

  it("writes JSON where no person watches, and plain human lines there when LOG_FORMAT=pretty", async () => {
    const json = await logOnce(false);
    expect(json).not.toContain(SECRET);
    expect(JSON.parse(json)).toMatchObject({ level: "warn", message: "site saved", service: "unit", site_id: 7, account: { access_token: "[REDACTED]" } });
    const pretty = await logOnce(false, "pretty");
    expect(pretty).toMatch(/^\d\d:\d\d:\d\d\.\d{3} WARN {2}unit site saved site_id=7 /);
    expect(pretty).not.toContain("\u001b[");
    expect(pretty).not.toContain(SECRET);
    expect(await logOnce(true, "json")).toMatch(/^\{"account":/);
  });

  it("makes a platform process print human lines with LOG_FORMAT=pretty or on a terminal, and JSON into a pipe", async () => {
    const env = { PORT: "0", HOST: "127.0.0.1", LOG_FORMAT: "" }; // unset: each process looks at its stdout
    const listening = /^\d\d:\d\d:\d\d\.\d{3} INFO {2}api api listening port=\d+ api_root=\/middleware\/v1$/m;
    const pretty = spawnEntry("packages/api/src/main.ts", [], { ...env, LOG_FORMAT: "pretty" });
    const piped = spawnEntry("packages/api/src/main.ts", [], env);
    // `script` runs the API on a pseudo-terminal, as a shell in a terminal window would.
    const terminal = spawn("script", ["-qefc", `${process.execPath} --import tsx packages/api/src/main.ts`, "/dev/null"], {
      cwd: ROOT,
      env: { ...process.env, ...testEnv(), ...env, LOG_STDOUT: "true" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let onTerminal = "";
    terminal.stdout.on("data", (chunk: Buffer) => (onTerminal += chunk.toString()));
    const terminalExited = new Promise((resolve) => terminal.on("exit", resolve));
    try {
      await pretty.waitFor(/api listening/, 60_000);
      expect(pretty.output()).toMatch(listening);
      expect(pretty.output()).not.toMatch(/^\{/m);
      await piped.waitFor(/"message":"api listening"/, 60_000);
      await until(() => /api listening/.test(onTerminal), () => `the API on a terminal to start:\n${onTerminal}`, 60_000);
      expect(onTerminal).toContain("\u001b[32mINFO ");
      expect(stripVTControlCharacters(onTerminal).replace(/\r/g, "")).toMatch(listening);
    } finally {
      pretty.child.kill("SIGTERM");
      piped.child.kill("SIGTERM");
      terminal.kill("SIGTERM");
      await Promise.all([pretty.exited(), piped.exited(), terminalExited]);
    }
  }, 120_000);
});
