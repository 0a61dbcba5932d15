import { z } from "zod";
import { type AppError, decryptSecret, encryptSecret, errors, isUniqueViolation, type PrismaClient } from "@mw/platform";

/** The acquirer drops leading zeros from merchant ids (spec 1, 2.6), so ids are stored and looked up without them. */
export function normaliseMid(mid: string): string {
  return mid.trim().replace(/^0+(?=.)/, "");
}

export const merchantInput = z.object({
  mid: z.string().trim().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/, "letters, digits, _ and - only"),
  security_key: z.string().trim().min(1).max(255),
  name: z.string().trim().min(1).max(191).optional(),
});

export type MerchantInput = z.output<typeof merchantInput>;

/** What lists and details show: never the security key. */
export interface MerchantView {
  id: number;
  mid: string;
  name: string | null;
  created_at: Date;
  updated_at: Date;
}

export const MERCHANT_VIEW = { id: true, mid: true, name: true, created_at: true, updated_at: true } as const;

function conflict(mid: string): AppError {
  return errors.conflict("merchant_exists", `A merchant account for MID ${mid} already exists.`);
}

export async function createMerchant(prisma: PrismaClient, key: Buffer, input: MerchantInput): Promise<MerchantView> {
  const mid = normaliseMid(input.mid);
  try {
    return await prisma.merchantAccount.create({
      data: { mid, name: input.name ?? null, security_key: encryptSecret(input.security_key, key) },
      select: MERCHANT_VIEW,
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(mid);
    throw error;
  }
}

export async function updateMerchant(prisma: PrismaClient, key: Buffer, id: number, input: Partial<MerchantInput>): Promise<MerchantView> {
  const mid = input.mid === undefined ? undefined : normaliseMid(input.mid);
  try {
    const result = await prisma.merchantAccount.updateMany({
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
  return prisma.merchantAccount.findUniqueOrThrow({ where: { id }, select: MERCHANT_VIEW });
}

/** The gateway security key for an acquirer merchant id, or null when no account is configured. */
export async function gatewayKeyFor(prisma: PrismaClient, key: Buffer, mid: string): Promise<string | null> {
  const account = await prisma.merchantAccount.findUnique({ where: { mid: normaliseMid(mid) }, select: { security_key: true } });
  return account ? decryptSecret(account.security_key, key) : null;
}

