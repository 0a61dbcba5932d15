import { applySignal, staffSignalBody } from "@mw/shared/tickets";
import { csvRecords } from "./csv-file.ts";
import type { Command } from "./main.ts";

const FLAG = /^(1|true|yes|y)$/i;

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

export const staffCommands: Record<string, Command> = {
  "staff:import": {
    summary: "create or update the staff directory from a CSV file (id,name,email,phone,department_id,is_project_manager,is_department_manager); bad rows are reported and skipped",
    arguments: [{ name: "FILE.csv", description: "a header row, then one staff member per line; id is the ticket system's staff id" }],
    options: {},
    async run(prisma, _values, [file]) {
      const summary = { success: true, rows: 0, applied: 0, unchanged: 0, skipped: 0 };
      for await (const record of csvRecords(file!)) {
        summary.rows += 1;
        const parsed = staffSignalBody.safeParse(staffRecord(record));
        if (!parsed.success) {
          summary.skipped += 1;
          const issue = parsed.error.issues[0]!;
          process.stderr.write(`row ${summary.rows + 1}: ${issue.path.join(".") || "row"}: ${issue.message}, skipped\n`);
          continue;
        }
        const outcome = await applySignal(prisma, { signal: "staff.updated", staff: parsed.data });
        if (outcome.changed) summary.applied += 1;
        else summary.unchanged += 1;
      }
      return summary;
    },
  },
};
