import { errors } from "@mw/platform/core";
import { itemInput, upsertItems, type ItemInput } from "@mw/domains/inventory";
import { csvRecords } from "./csv-file.ts";
import type { Command } from "./command.ts";

/**
 * Reads a CSV with a header row naming at least sku, name, price and stock.
 * Every row is validated before anything is written: a bad file changes nothing.
 */
async function readItems(file: string): Promise<ItemInput[]> {
  const items: ItemInput[] = [];
  const problems: string[] = [];
  let row = 1;
  for await (const record of csvRecords(file)) {
    row += 1;
    const result = itemInput.safeParse({
      sku: record.sku,
      name: record.name,
      price: record.price === undefined || record.price === "" ? undefined : Number(record.price),
      stock: record.stock === undefined || record.stock === "" ? undefined : Number(record.stock),
    });
    if (result.success) items.push(result.data);
    else problems.push(`row ${row}: ${result.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
  }
  if (problems.length) throw errors.invalidInput(`${problems.length} invalid row(s), nothing imported:\n${problems.slice(0, 20).join("\n")}`);
  return items;
}

export const itemCommands: Record<string, Command> = {
  "items:import": {
    arguments: [{ name: "FILE.csv", description: "path of the CSV file" }],
    options: {},
    async run(deps, _values, [file]) {
      const items = await readItems(file!);
      return { success: true, rows: items.length, ...(await upsertItems(deps, items)) };
    },
  },
};
