import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createLogger, redact, writerTag } from "@mw/platform";
import { describe, expect, it } from "vitest";
import { spawnEntry } from "../support/processes.ts";
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
});
