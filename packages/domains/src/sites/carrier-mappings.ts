import { isUniqueViolation } from "@mw/platform/database";
import type { Connections } from "@mw/platform/connections";
import type { CarrierMapping, Platform } from "@mw/platform/prisma";

type Db = Pick<Connections, "prisma">;

/** One page of the mappings, of one platform or all, by platform and ERP code. */
export async function listCarrierMappings(deps: Db, platform: Platform | undefined, window: { skip: number; take: number }) {
  const where = platform ? { platform } : {};
  const [total, rows] = await Promise.all([
    deps.prisma.carrierMapping.count({ where }),
    deps.prisma.carrierMapping.findMany({ where, orderBy: [{ platform: "asc" }, { erp_carrier_code: "asc" }], ...window }),
  ]);
  return { total, rows };
}

/** Creates or changes the mapping of one ERP carrier code on one platform. */
export async function saveCarrierMapping(deps: Db, mapping: Pick<CarrierMapping, "platform" | "erp_carrier_code" | "platform_carrier_code">): Promise<CarrierMapping> {
  const upsert = () =>
    deps.prisma.carrierMapping.upsert({
      where: { platform_erp_carrier_code: { platform: mapping.platform, erp_carrier_code: mapping.erp_carrier_code } },
      create: mapping,
      update: { platform_carrier_code: mapping.platform_carrier_code },
    });
  // Two first saves of one code race on the unique key; the loser's retry finds the row and updates it.
  return upsert().catch((error: unknown) => {
    if (isUniqueViolation(error)) return upsert();
    throw error;
  });
}

/** False when there is no mapping with that id. */
export async function deleteCarrierMapping(deps: Db, id: number): Promise<boolean> {
  const { count } = await deps.prisma.carrierMapping.deleteMany({ where: { id } });
  return count > 0;
}
