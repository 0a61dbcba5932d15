import type { Connections } from "@mw/platform/connections";

type Db = Pick<Connections, "prisma">;

/** Serial numbers are at most this long: a longer one is not looked up at all. */
const SERIAL_NUMBER_MAX = 64;

/** The serial number's sealing date and where its image is stored; null when it is unknown. */
export async function findSerial(deps: Db, serialNumber: string): Promise<{ date_of_sealing: Date; image_key: string } | null> {
  if (serialNumber.length > SERIAL_NUMBER_MAX) return null;
  return deps.prisma.serialNumber.findUnique({ where: { serial_number: serialNumber }, select: { date_of_sealing: true, image_key: true } });
}

/** Where the image of the serial number with that row id is stored; null when the id has no row. */
export async function serialImageKey(deps: Db, id: number): Promise<string | null> {
  const row = await deps.prisma.serialNumber.findUnique({ where: { id }, select: { image_key: true } });
  return row?.image_key ?? null;
}
