import { PrismaMariaDb } from "@prisma/adapter-mariadb";
import { Prisma, PrismaClient } from "./generated/prisma/client.ts";

export type { PrismaClient } from "./generated/prisma/client.ts";
export { Prisma } from "./generated/prisma/client.ts";

/** A Prisma client over the MariaDB driver adapter (MySQL 8 and MariaDB both speak it). */
export function createPrisma(databaseUrl: string, options: { connectionLimit?: number } = {}): PrismaClient {
  const url = new URL(databaseUrl);
  url.searchParams.set("connectionLimit", String(options.connectionLimit ?? 10));
  // DATETIME columns hold UTC; the driver must not shift them by the server's zone.
  url.searchParams.set("timezone", "Z");
  return new PrismaClient({ adapter: new PrismaMariaDb(url.toString()) });
}

/** True when a write failed on a unique index: P2002 from model queries, P2010 carrying the driver's kind from raw ones. */
export function isUniqueViolation(error: unknown): boolean {
  if (!(error instanceof Prisma.PrismaClientKnownRequestError)) return false;
  if (error.code === "P2002") return true;
  const cause = (error.meta as { driverAdapterError?: { cause?: { kind?: string } } } | undefined)?.driverAdapterError?.cause;
  return error.code === "P2010" && cause?.kind === "UniqueConstraintViolation";
}
