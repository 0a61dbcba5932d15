import { createReadStream } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import { createRedis, getConfig, Queues, type PrismaClient } from "@mw/platform";
import { OptionStore } from "@mw/shared/options";
import { applySignal, requestAnalysis, ticketSignal } from "@mw/shared/tickets";
import type { Command } from "./main.ts";

const PROGRESS_EVERY_MS = 2_000;

interface ImportSummary {
  success: boolean;
  lines: number;
  applied: number;
  unchanged: number;
  skipped: number;
  analyses_queued: number;
}

/**
 * Backfills the mirror from a JSON Lines file of signals (design 10.1), one
 * at a time as it streams: each line is applied as the signal endpoint would
 * (idempotent, so a file may be imported again); a bad line is reported on
 * stderr with its number and skipped. With `analyse`, each ticket that
 * received an entry is queued for one urgency analysis at the end.
 */
async function importSignals(prisma: PrismaClient, file: string, analyse: boolean): Promise<ImportSummary> {
  const summary: ImportSummary = { success: true, lines: 0, applied: 0, unchanged: 0, skipped: 0, analyses_queued: 0 };
  const toAnalyse = new Set<number>();
  const lines = createInterface({ input: createReadStream(file, { encoding: "utf8" }), crlfDelay: Infinity });
  let reported = Date.now();
  for await (const line of lines) {
    summary.lines += 1;
    if (!line.trim()) continue;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      summary.skipped += 1;
      process.stderr.write(`line ${summary.lines}: not JSON, skipped\n`);
      continue;
    }
    const parsed = ticketSignal.safeParse(json);
    if (!parsed.success) {
      summary.skipped += 1;
      const issue = parsed.error.issues[0]!;
      process.stderr.write(`line ${summary.lines}: ${issue.path.join(".") || "line"}: ${issue.message}, skipped\n`);
      continue;
    }
    const outcome = await applySignal(prisma, parsed.data);
    if (outcome.changed) summary.applied += 1;
    else summary.unchanged += 1;
    if (outcome.analyse) toAnalyse.add(outcome.analyse.ticket_id);
    if (Date.now() - reported >= PROGRESS_EVERY_MS) {
      reported = Date.now();
      process.stderr.write(`${summary.lines} lines read: ${summary.applied} applied, ${summary.unchanged} unchanged, ${summary.skipped} skipped\n`);
    }
  }
  if (analyse && toAnalyse.size) {
    const config = getConfig();
    const redis = createRedis(config.REDIS_URL, { name: "mw-cli" });
    const queues = new Queues(redis, config.QUEUE_PREFIX);
    try {
      const deps = { prisma, queues, options: new OptionStore(prisma, config.ENCRYPTION_KEY) };
      for (const ticketId of toAnalyse) await requestAnalysis(deps, ticketId);
      summary.analyses_queued = toAnalyse.size;
    } finally {
      await queues.close();
      await redis.quit();
    }
  }
  return summary;
}

export const ticketCommands: Record<string, Command> = {
  "tickets:import": {
    summary: "backfill tickets, thread entries and staff from a JSON Lines file of ticket-system signals (bad lines are reported and skipped)",
    arguments: [{ name: "FILE.jsonl", description: "one signal per line, as POST /tickets/v1/signals takes it" }],
    options: { analyse: { type: "boolean", description: "queue one urgency analysis for each ticket that received entries" } },
    async run(prisma, values, [file]) {
      // pnpm runs scripts from the repository root; INIT_CWD is where the user typed the command.
      return importSignals(prisma, path.resolve(process.env.INIT_CWD ?? process.cwd(), file!), values.analyse === true);
    },
  },
};
