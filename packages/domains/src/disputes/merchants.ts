import { z } from "zod";
import { type AppError, errors } from "@mw/platform/core";
import { isUniqueViolation } from "@mw/platform/database";
import { decryptSecret, encryptSecret } from "@mw/platform/crypto";
import type { Connections } from "@mw/platform/connections";

/** The acquirer drops leading zeros from merchant ids (spec 1, 2.6), so ids are stored and looked up without them. */
export function normaliseMid(mid: string): string {
  return mid.trim().replace(/^0+(?=.)/, "");
}

export const merchantInput = z.object({
  mid: z.string().trim().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/, "letters, digits, _ and - only"),
  security_key: z.string().trim().min(1).max(255),
  name: z.string().trim().min(1).max(191).optional(),
});

type MerchantInput = z.output<typeof merchantInput>;

/** What lists and details show: never the security key. */
export interface MerchantView {
  id: number;
  mid: string;
  name: string | null;
  created_at: Date;
  updated_at: Date;
}

const MERCHANT_VIEW = { id: true, mid: true, name: true, created_at: true, updated_at: true } as const;

function conflict(mid: string): AppError {
  return errors.conflict("merchant_exists", `A merchant account for MID ${mid} already exists.`);
}

type Deps = Pick<Connections, "prisma">;

export async function createMerchant(deps: Deps, key: Buffer, input: MerchantInput): Promise<MerchantView> {
  const mid = normaliseMid(input.mid);
  try {
    return await deps.prisma.merchantAccount.create({
      data: { mid, name: input.name ?? null, security_key: encryptSecret(input.security_key, key) },
      select: MERCHANT_VIEW,
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(mid);
    throw error;
  }
}

export async function updateMerchant(deps: Deps, key: Buffer, id: number, input: Partial<MerchantInput>): Promise<MerchantView> {
  const mid = input.mid === undefined ? undefined : normaliseMid(input.mid);
  try {
    const result = await deps.prisma.merchantAccount.updateMany({
      where: { id },
      data: {
        mid,
        name: input.name,
        security_key: input.security_key === undefined ? undefined : encryptSecret(input.security_key, key),
      },
    });
    if (result.count === 0) throw errors.notFound("Merchant account not found.");
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(mid!);
    throw error;
  }
  return deps.prisma.merchantAccount.findUniqueOrThrow({ where: { id }, select: MERCHANT_VIEW });
}

/** Accounts by MID, with how many there are in all. */
export async function listMerchants(deps: Deps, page: { skip: number; take: number }): Promise<{ total: number; rows: MerchantView[] }> {
  const [total, rows] = await Promise.all([deps.prisma.merchantAccount.count(), deps.prisma.merchantAccount.findMany({ select: MERCHANT_VIEW, orderBy: { mid: "asc" }, ...page })]);
  return { total, rows };
}

export async function deleteMerchant(deps: Deps, id: number): Promise<void> {
  const result = await deps.prisma.merchantAccount.deleteMany({ where: { id } });
  if (result.count === 0) throw errors.notFound("Merchant account not found.");
}

/** The gateway security key for an acquirer merchant id, or null when no account is configured. */
export async function gatewayKeyFor(deps: Deps, key: Buffer, mid: string): Promise<string | null> {
  const account = await deps.prisma.merchantAccount.findUnique({ where: { mid: normaliseMid(mid) }, select: { security_key: true } });
  return account ? decryptSecret(account.security_key, key) : null;
}

