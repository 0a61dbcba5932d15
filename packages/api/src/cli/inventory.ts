import { itemsFromRecords, upsertItems } from "@mw/domains/inventory";
import { csvRecords } from "./csv-file.ts";
import type { Command } from "./command.ts";

export const itemCommands: Record<string, Command> = {
  "items:import": {
    arguments: [{ name: "FILE.csv", description: "path of the CSV file" }],
    options: {},
    async run(deps, _values, [file]) {
      const items = await itemsFromRecords(csvRecords(file!));
      return { success: true, rows: items.length, ...(await upsertItems(deps, items)) };
    },
  },
};
