import { errors } from "@mw/platform/core";
import { itemInput, type ItemInput } from "./items.ts";

/**
 * The items of a CSV's records (a header row naming at least sku, name, price
 * and stock), for `pnpm cli items:import` and the console's import alike.
 * Every row is validated before anything is written: a bad file changes nothing.
 */
export async function itemsFromRecords(records: AsyncIterable<Record<string, string>>): Promise<ItemInput[]> {
  const items: ItemInput[] = [];
  const problems: string[] = [];
  let row = 1;
  for await (const record of records) {
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
