import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import { openOptionStore } from "@mw/domains/options";
import { applyStaffRecord, staffSignalBody, ticketSignal } from "@mw/domains/tickets";
import { receiveTicketSignal } from "@mw/domains/urgency";
import type { CliIo, CliQueueDeps, Command } from "./command.ts";
import { csvRecords } from "./csv-file.ts";
import { inputFile } from "./input-file.ts";

const PROGRESS_EVERY_MS = 2_000;
const FLAG = /^(1|true|yes|y)$/i;

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
 * at a time as it streams: each line is taken as the signal endpoint takes it
 * (idempotent, so a file may be imported again, with the time-tracking
 * follow-ups); a bad line is reported on stderr with its number and skipped.
 * With `analyse`, each ticket that received an entry gets its urgency
 * analysis job (one per ticket).
 */
async function importSignals(deps: CliQueueDeps, file: string, analyse: boolean, io: CliIo): Promise<ImportSummary> {
  const summary: ImportSummary = { success: true, lines: 0, applied: 0, unchanged: 0, skipped: 0, analyses_queued: 0 };
  const analysed = new Set<number>();
  const intake = { ...deps, options: openOptionStore(deps) };
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
      io.err(`line ${summary.lines}: not JSON, skipped`);
      continue;
    }
    const parsed = ticketSignal.safeParse(json);
    if (!parsed.success) {
      summary.skipped += 1;
      const issue = parsed.error.issues[0]!;
      io.err(`line ${summary.lines}: ${issue.path.join(".") || "line"}: ${issue.message}, skipped`);
      continue;
    }
    const outcome = await receiveTicketSignal(intake, parsed.data, { analyse, source: "tickets:import" });
    if (outcome.changed) summary.applied += 1;
    else summary.unchanged += 1;
    if (outcome.queued && outcome.analyse) analysed.add(outcome.analyse.ticket_id);
    if (Date.now() - reported >= PROGRESS_EVERY_MS) {
      reported = Date.now();
      io.err(`${summary.lines} lines read: ${summary.applied} applied, ${summary.unchanged} unchanged, ${summary.skipped} skipped`);
    }
  }
  summary.analyses_queued = analysed.size;
  return summary;
}

/** A CSV cell as the staff record wants it: empty is absent, numbers and yes/no flags read as such. */
function staffRecord(record: Record<string, string>) {
  const number = (value: string | undefined) => (value === undefined || value === "" ? undefined : Number(value));
  return {
    id: number(record.id),
    name: record.name,
    email: record.email || null,
    phone: record.phone || null,
    department_id: number(record.department_id) ?? null,
    is_project_manager: FLAG.test(record.is_project_manager ?? ""),
    is_department_manager: FLAG.test(record.is_department_manager ?? ""),
  };
}

export const ticketCommands: Record<string, Command> = {
  "tickets:import": {
    queues: true,
    arguments: [{ name: "FILE.jsonl", description: "one signal per line, as POST /tickets/v1/signals takes it" }],
    options: { analyse: { type: "boolean", description: "queue one urgency analysis for each ticket that received entries" } },
    async run(deps, values, [file], io) {
      return importSignals(deps, inputFile(file!), values.analyse === true, io);
    },
  },
};

export const staffCommands: Record<string, Command> = {
  "staff:import": {
    arguments: [{ name: "FILE.csv", description: "a header row, then one staff member per line; id is the ticket system's staff id" }],
    options: {},
    async run(deps, _values, [file], io) {
      const summary = { success: true, rows: 0, applied: 0, unchanged: 0, skipped: 0 };
      for await (const record of csvRecords(file!)) {
        summary.rows += 1;
        const parsed = staffSignalBody.safeParse(staffRecord(record));
        if (!parsed.success) {
          summary.skipped += 1;
          const issue = parsed.error.issues[0]!;
          io.err(`row ${summary.rows + 1}: ${issue.path.join(".") || "row"}: ${issue.message}, skipped`);
          continue;
        }
        if (await applyStaffRecord(deps, parsed.data)) summary.applied += 1;
        else summary.unchanged += 1;
      }
      return summary;
    },
  },
};
