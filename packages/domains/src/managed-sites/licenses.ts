import { z } from "zod";
import { errors } from "@mw/platform/core";
import type { Config } from "@mw/platform/config";
import { Prisma, type PrismaClient } from "@mw/platform/database";
import { encryptSecret, sha256Hex } from "@mw/platform/crypto";
import { daysFromNow, daysLeft } from "./expiry.ts";
import { emptyAsNull, formBool, formDay, formId, formInt, formText } from "./form.ts";

const editable = {
  product: z.string().trim().min(1).max(191),
  license_key: formText(1000).optional(),
  seats: emptyAsNull(formInt(0, 1_000_000)).optional(),
  expires_on: formDay.optional(),
  cost_id: emptyAsNull(formId).optional(),
  notes: formText(65_535).optional(),
};

export const addLicenseInput = z.object(editable);
export const updateLicenseInput = z.object({ id: formId, ...z.object(editable).partial().shape });
/** map_license: the cost that pays for a license; null (or empty) unmaps it. */
export const mapLicenseInput = z.object({ license_id: formId, cost_id: emptyAsNull(formId) });
export const listLicensesInput = z.object({
  page: formInt(1).default(1),
  per_page: formInt(1, 100).default(20),
  search: z.string().trim().max(191).optional(),
  cost_id: formId.optional(),
  /** Only licenses no cost pays for yet. */
  unmapped: formBool.optional(),
  /** Only licenses that expire within this many days (or have expired). */
  expiring_days: formInt(0, 3650).optional(),
});

type LicenseRow = Prisma.LicenseGetPayload<{ include: { cost: { select: { id: true; name: true; vendor: true } } } }>;
const withCost = { cost: { select: { id: true, name: true, vendor: true } } } as const;

/** A license as the dashboard shows it: the key only as set or not. */
export function licenseView(license: LicenseRow, now = Date.now()) {
  return {
    id: license.id,
    product: license.product,
    license_key_set: license.license_key !== null,
    seats: license.seats,
    expires_on: license.expires_on?.toISOString().slice(0, 10) ?? null,
    days_left: daysLeft(license.expires_on, now),
    cost: license.cost,
    notes: license.notes,
    created_at: license.created_at.toISOString(),
    updated_at: license.updated_at.toISOString(),
  };
}

/** The key, encrypted, and its digest: the digest finds the same license again on an import without decrypting every row. */
function keyData(key: string | null | undefined, encryptionKey: Buffer) {
  if (key === undefined) return {};
  return key === null ? { license_key: null, key_digest: null } : { license_key: encryptSecret(key, encryptionKey), key_digest: sha256Hex(key) };
}

function day(value: string | null | undefined): Date | null | undefined {
  return value === undefined ? undefined : value === null ? null : new Date(`${value}T00:00:00Z`);
}

type LicenseFields = z.output<typeof addLicenseInput>;

export class Licenses {
  private readonly prisma: PrismaClient;
  private readonly encryptionKey: Buffer;

  constructor(deps: { prisma: PrismaClient; config: Pick<Config, "ENCRYPTION_KEY"> }) {
    this.prisma = deps.prisma;
    this.encryptionKey = deps.config.ENCRYPTION_KEY;
  }

  async find(id: number): Promise<LicenseRow> {
    const license = await this.prisma.license.findUnique({ where: { id }, include: withCost });
    if (!license) throw errors.notFound(`No license ${id}.`);
    return license;
  }

  private async checkCost(costId: number | null | undefined): Promise<void> {
    if (costId && !(await this.prisma.cost.findUnique({ where: { id: costId }, select: { id: true } }))) throw errors.notFound(`No cost ${costId}.`);
  }

  async add(input: LicenseFields): Promise<LicenseRow> {
    await this.checkCost(input.cost_id);
    const { license_key, expires_on, ...plain } = input;
    return this.prisma.license.create({ data: { ...plain, expires_on: day(expires_on), ...keyData(license_key, this.encryptionKey) }, include: withCost });
  }

  async update(input: z.output<typeof updateLicenseInput>): Promise<LicenseRow> {
    const { id, license_key, expires_on, ...plain } = input;
    await this.find(id);
    await this.checkCost(plain.cost_id);
    return this.prisma.license.update({ where: { id }, data: { ...plain, expires_on: day(expires_on), ...keyData(license_key, this.encryptionKey) }, include: withCost });
  }

  async delete(id: number): Promise<void> {
    await this.find(id);
    await this.prisma.license.delete({ where: { id } });
  }

  async map(licenseId: number, costId: number | null): Promise<LicenseRow> {
    await this.find(licenseId);
    await this.checkCost(costId);
    return this.prisma.license.update({ where: { id: licenseId }, data: { cost_id: costId }, include: withCost });
  }

  /**
   * An imported row: the license with the same product and key is updated,
   * otherwise one is created (a row without a key matches a keyless license of
   * that product), so importing the same file twice changes nothing.
   */
  async upsert(input: LicenseFields): Promise<{ license: LicenseRow; created: boolean }> {
    const digest = input.license_key ? sha256Hex(input.license_key) : null;
    const existing = await this.prisma.license.findFirst({ where: { product: input.product, key_digest: digest }, select: { id: true } });
    if (existing) return { license: await this.update({ ...input, id: existing.id }), created: false };
    return { license: await this.add(input), created: true };
  }

  async list(input: z.output<typeof listLicensesInput>) {
    const where: Prisma.LicenseWhereInput = {
      ...(input.search ? { product: { contains: input.search } } : {}),
      ...(input.cost_id ? { cost_id: input.cost_id } : {}),
      ...(input.unmapped ? { cost_id: null } : {}),
      ...(input.expiring_days !== undefined ? { expires_on: { lte: daysFromNow(input.expiring_days) } } : {}),
    };
    const [total, rows] = await Promise.all([
      this.prisma.license.count({ where }),
      this.prisma.license.findMany({ where, include: withCost, orderBy: [{ expires_on: { sort: "asc", nulls: "last" } }, { product: "asc" }, { id: "asc" }], skip: (input.page - 1) * input.per_page, take: input.per_page }),
    ]);
    return { licenses: rows.map((row) => licenseView(row)), total, page: input.page, per_page: input.per_page, total_pages: Math.ceil(total / input.per_page) };
  }
}
