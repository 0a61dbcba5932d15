import type { Chargeback, DisputeLinkage } from "@mw/platform/prisma";
import { errors } from "@mw/platform/core";
import type { Connections } from "@mw/platform/connections";
import { totalByDay, type DayRange } from "@mw/platform/database";

export type { Chargeback, DisputeLinkage } from "@mw/platform/prisma";

/** Which linkages or chargebacks a list shows; `from` and `to` are whole UTC days (`YYYY-MM-DD`), both inclusive. */
interface CaseFilter {
  case_id?: string;
  order_number?: string;
  from?: string;
  to?: string;
}

/** One page of a list: rows to skip and to take. */
interface PageWindow {
  skip: number;
  take: number;
}

function dayRange(from?: string, to?: string): DayRange | undefined {
  if (!from && !to) return undefined;
  return {
    ...(from ? { gte: new Date(`${from}T00:00:00Z`) } : {}),
    ...(to ? { lt: new Date(Date.parse(`${to}T00:00:00Z`) + 86_400_000) } : {}),
  };
}

/**
 * How many cases of a list match: by case id or order number counted from the rows (`count`, their own
 * index); otherwise the list's kept counts of each day summed (whole days always, as the filter takes them).
 */
function countCases(
  deps: Pick<Connections, "prisma">,
  list: "linkages" | "chargebacks",
  filter: CaseFilter,
  count: (range: DayRange | undefined) => Promise<number>,
): Promise<number> {
  const days = dayRange(filter.from, filter.to);
  if (filter.case_id !== undefined || filter.order_number !== undefined) return count(days);
  return totalByDay(
    { from: days?.gte, before: days?.lt },
    async (day) => (await deps.prisma.disputeCaseCount.aggregate({ _sum: { cases: true }, where: { list, day } }))._sum.cases,
    count,
  );
}

/** Linkages, newest first, with how many match in all; the days are those of `linked_at`. */
export async function listLinkages(deps: Pick<Connections, "prisma">, filter: CaseFilter, page: PageWindow): Promise<{ total: number; rows: DisputeLinkage[] }> {
  const where = { case_id: filter.case_id, order_number: filter.order_number, linked_at: dayRange(filter.from, filter.to) };
  const [total, rows] = await Promise.all([
    countCases(deps, "linkages", filter, (linked_at) => deps.prisma.disputeLinkage.count({ where: { ...where, linked_at } })),
    deps.prisma.disputeLinkage.findMany({ where, orderBy: { id: "desc" }, ...page }),
  ]);
  return { total, rows };
}

export async function getLinkage(deps: Pick<Connections, "prisma">, id: number): Promise<DisputeLinkage> {
  const row = await deps.prisma.disputeLinkage.findUnique({ where: { id } });
  if (!row) throw errors.notFound("Linkage not found.");
  return row;
}

/** Chargebacks, newest first, with how many match in all; the days are those of `created_at`. */
export async function listChargebacks(deps: Pick<Connections, "prisma">, filter: CaseFilter, page: PageWindow): Promise<{ total: number; rows: Chargeback[] }> {
  const where = { case_id: filter.case_id, order_number: filter.order_number, created_at: dayRange(filter.from, filter.to) };
  const [total, rows] = await Promise.all([
    countCases(deps, "chargebacks", filter, (created_at) => deps.prisma.chargeback.count({ where: { ...where, created_at } })),
    deps.prisma.chargeback.findMany({ where, orderBy: { id: "desc" }, ...page }),
  ]);
  return { total, rows };
}

export async function getChargeback(deps: Pick<Connections, "prisma">, id: number): Promise<Chargeback> {
  const row = await deps.prisma.chargeback.findUnique({ where: { id } });
  if (!row) throw errors.notFound("Chargeback not found.");
  return row;
}
