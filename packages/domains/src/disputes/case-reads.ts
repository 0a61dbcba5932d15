import type { Chargeback, DisputeLinkage } from "@mw/platform/prisma";
import { errors } from "@mw/platform/core";
import type { Connections } from "@mw/platform/connections";

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

function dayRange(from?: string, to?: string): { gte?: Date; lt?: Date } | undefined {
  if (!from && !to) return undefined;
  return {
    ...(from ? { gte: new Date(`${from}T00:00:00Z`) } : {}),
    ...(to ? { lt: new Date(Date.parse(`${to}T00:00:00Z`) + 86_400_000) } : {}),
  };
}

/** Linkages, newest first, with how many match in all; the days are those of `linked_at`. */
export async function listLinkages(deps: Pick<Connections, "prisma">, filter: CaseFilter, page: PageWindow): Promise<{ total: number; rows: DisputeLinkage[] }> {
  const where = { case_id: filter.case_id, order_number: filter.order_number, linked_at: dayRange(filter.from, filter.to) };
  const [total, rows] = await Promise.all([deps.prisma.disputeLinkage.count({ where }), deps.prisma.disputeLinkage.findMany({ where, orderBy: { id: "desc" }, ...page })]);
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
  const [total, rows] = await Promise.all([deps.prisma.chargeback.count({ where }), deps.prisma.chargeback.findMany({ where, orderBy: { id: "desc" }, ...page })]);
  return { total, rows };
}

export async function getChargeback(deps: Pick<Connections, "prisma">, id: number): Promise<Chargeback> {
  const row = await deps.prisma.chargeback.findUnique({ where: { id } });
  if (!row) throw errors.notFound("Chargeback not found.");
  return row;
}
