import { addLicenseInput, Licenses } from "@mw/domains/managed-sites";
import type { Command } from "./command.ts";
import { csvRecords } from "./csv-file.ts";

/** A CSV row as add_license takes it: the same fields, empty cells meaning none. */
function licenseFields(record: Record<string, string>) {
  return {
    product: record.product,
    license_key: record.license_key ?? "",
    seats: record.seats ?? "",
    expires_on: record.expires_on ?? "",
    cost_id: record.cost_id ?? "",
    notes: record.notes ?? "",
  };
}

export const licenseCommands: Record<string, Command> = {
  "licenses:import": {
    arguments: [{ name: "FILE.csv", description: "a header row, then one license per line; expires_on as YYYY-MM-DD, cost_id an existing cost's id (may be empty)" }],
    options: {},
    async run(deps, _values, [file], io) {
      const licenses = new Licenses(deps);
      const summary = { success: true, rows: 0, created: 0, updated: 0, skipped: 0 };
      for await (const record of csvRecords(file!)) {
        summary.rows += 1;
        const line = summary.rows + 1;
        const parsed = addLicenseInput.safeParse(licenseFields(record));
        if (!parsed.success) {
          summary.skipped += 1;
          const issue = parsed.error.issues[0]!;
          io.err(`row ${line}: ${issue.path.join(".") || "row"}: ${issue.message}, skipped`);
          continue;
        }
        try {
          const { created } = await licenses.upsert(parsed.data);
          summary[created ? "created" : "updated"] += 1;
        } catch (error) {
          summary.skipped += 1;
          io.err(`row ${line}: ${(error as Error).message} skipped`);
        }
      }
      return summary;
    },
  },
};
