import { z } from "zod";
import { errors } from "@mw/platform/core";
import { Prisma, type PrismaClient } from "@mw/platform/database";
import { formDay, formId, formInt, formMoney, formText } from "./form.ts";

const COST_CYCLES = ["monthly", "yearly"] as const;

const editable = {
  name: z.string().trim().min(1).max(191),
  vendor: z.string().trim().min(1).max(191),
  amount: formMoney,
  currency: z
    .string()
    .trim()
    .regex(/^[A-Za-z]{3}$/, "must be a three-letter currency code like EUR")
    .transform((code) => code.toUpperCase()),
  cycle: z.enum(COST_CYCLES),
  renews_on: formDay.optional(),
  notes: formText(65_535).optional(),
};

export const addCostInput = z.object(editable);
export const updateCostInput = z.object({ id: formId, ...z.object(editable).partial().shape });
export const siteCostInput = z.object({ cost_id: formId, site_id: formId });
export const listCostsInput = z.object({
  page: formInt(1).default(1),
  per_page: formInt(1, 100).default(20),
  vendor: z.string().trim().max(191).optional(),
  search: z.string().trim().max(191).optional(),
  site_id: formId.optional(),
});

type CostRow = Prisma.CostGetPayload<{ include: { sites: { select: { site_id: true } } } }>;

/** A yearly cost spread over twelve months, to the cent. */
export function monthlyAmount(amount: Prisma.Decimal, cycle: string): Prisma.Decimal {
  return cycle === "yearly" ? amount.div(12).toDecimalPlaces(2) : amount;
}

/** A cost with its monthly equivalent and the share each of its sites carries (split evenly). */
export function costView(cost: CostRow) {
  const monthly = monthlyAmount(cost.amount, cost.cycle);
  const sites = cost.sites.map((link) => link.site_id).sort((a, b) => a - b);
  return {
    id: cost.id,
    name: cost.name,
    vendor: cost.vendor,
    amount: cost.amount.toNumber(),
    currency: cost.currency,
    cycle: cost.cycle as (typeof COST_CYCLES)[number],
    renews_on: cost.renews_on?.toISOString().slice(0, 10) ?? null,
    notes: cost.notes,
    monthly_amount: monthly.toNumber(),
    site_ids: sites,
    per_site_monthly_share: sites.length ? monthly.div(sites.length).toDecimalPlaces(2).toNumber() : null,
    created_at: cost.created_at.toISOString(),
    updated_at: cost.updated_at.toISOString(),
  };
}

const withSites = { sites: { select: { site_id: true } } } as const;

function dayOrNull(day: string | null | undefined): Date | null | undefined {
  return day === undefined ? undefined : day === null ? null : new Date(`${day}T00:00:00Z`);
}

export class Costs {
  private readonly prisma: PrismaClient;

  constructor(deps: { prisma: PrismaClient }) {
    this.prisma = deps.prisma;
  }

  async find(id: number): Promise<CostRow> {
    const cost = await this.prisma.cost.findUnique({ where: { id }, include: withSites });
    if (!cost) throw errors.notFound(`No cost ${id}.`);
    return cost;
  }

  add(input: z.output<typeof addCostInput>): Promise<CostRow> {
    return this.prisma.cost.create({ data: { ...input, renews_on: dayOrNull(input.renews_on) }, include: withSites });
  }

  async update(input: z.output<typeof updateCostInput>): Promise<CostRow> {
    const { id, renews_on, ...rest } = input;
    await this.find(id);
    return this.prisma.cost.update({ where: { id }, data: { ...rest, renews_on: dayOrNull(renews_on) }, include: withSites });
  }

  async delete(id: number): Promise<void> {
    await this.find(id);
    await this.prisma.cost.delete({ where: { id } });
  }

  async list(input: z.output<typeof listCostsInput>) {
    const where: Prisma.CostWhereInput = {
      ...(input.vendor ? { vendor: input.vendor } : {}),
      ...(input.search ? { OR: [{ name: { contains: input.search } }, { vendor: { contains: input.search } }] } : {}),
      ...(input.site_id ? { sites: { some: { site_id: input.site_id } } } : {}),
    };
    const [total, rows] = await Promise.all([
      this.prisma.cost.count({ where }),
      this.prisma.cost.findMany({ where, include: withSites, orderBy: [{ vendor: "asc" }, { name: "asc" }, { id: "asc" }], skip: (input.page - 1) * input.per_page, take: input.per_page }),
    ]);
    return { costs: rows.map(costView), total, page: input.page, per_page: input.per_page, total_pages: Math.ceil(total / input.per_page) };
  }

  /** Idempotent: assigning twice keeps one link. */
  async assign(costId: number, siteId: number): Promise<CostRow> {
    await this.find(costId);
    if (!(await this.prisma.managedSite.findUnique({ where: { id: siteId }, select: { id: true } }))) throw errors.notFound(`No managed site ${siteId}.`);
    await this.prisma.siteCost.upsert({ where: { site_id_cost_id: { site_id: siteId, cost_id: costId } }, create: { site_id: siteId, cost_id: costId }, update: {} });
    return this.find(costId);
  }

  async remove(costId: number, siteId: number): Promise<CostRow> {
    await this.find(costId);
    await this.prisma.siteCost.deleteMany({ where: { site_id: siteId, cost_id: costId } });
    return this.find(costId);
  }

  /** A site's costs with the share of each that falls on it, and the monthly total per currency. */
  async ofSite(siteId: number) {
    const rows = await this.prisma.cost.findMany({ where: { sites: { some: { site_id: siteId } } }, include: withSites, orderBy: [{ vendor: "asc" }, { name: "asc" }] });
    const costs = rows.map(costView);
    const totals = new Map<string, Prisma.Decimal>();
    for (const cost of costs) totals.set(cost.currency, (totals.get(cost.currency) ?? new Prisma.Decimal(0)).add(cost.per_site_monthly_share ?? 0));
    return { costs, monthly_total: [...totals].map(([currency, amount]) => ({ currency, amount: amount.toNumber() })) };
  }
}
