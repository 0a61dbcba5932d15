import { chunks } from "@mw/platform/core";
import type { Connections } from "@mw/platform/connections";

/** SKUs per lookup: the statement stays small however many are asked about. */
const SKU_BATCH = 5000;

/** The SKUs among `skus` that lines of orders not yet exported name (lower case). */
export async function skusOfPendingOrders(deps: Pick<Connections, "prisma">, skus: string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (const batch of chunks(skus, SKU_BATCH)) {
    const lines = await deps.prisma.orderLine.findMany({ where: { sku: { in: batch }, order: { imported: 0 } }, select: { sku: true }, distinct: ["sku"] });
    for (const line of lines) found.add(line.sku.toLowerCase());
  }
  return found;
}
