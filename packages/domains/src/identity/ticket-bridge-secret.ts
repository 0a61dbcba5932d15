import { decryptSecret, encryptSecret, randomToken } from "@mw/platform/crypto";
import type { Connections } from "@mw/platform/connections";

/** The one row of ticket_bridge_secrets. */
const ROW = 1;

type Deps = Pick<Connections, "prisma" | "config">;

/**
 * A new agent signing secret for the ticket system's plugin (X-Ticket-Staff),
 * replacing the previous one at once; stored encrypted and answered only
 * here, for `pnpm cli ticket-bridge:secret` to print once.
 */
export async function rotateTicketBridgeSecret({ prisma, config }: Deps): Promise<string> {
  const secret = randomToken(32);
  const stored = encryptSecret(secret, config.ENCRYPTION_KEY);
  await prisma.ticketBridgeSecret.upsert({ where: { id: ROW }, create: { id: ROW, secret: stored }, update: { secret: stored, created_at: new Date() } });
  return secret;
}

/** The agent signing secret, or null before `pnpm cli ticket-bridge:secret` has made one. Read per request, so a rotation counts at once. */
export async function ticketBridgeSecret({ prisma, config }: Deps): Promise<string | null> {
  const row = await prisma.ticketBridgeSecret.findUnique({ where: { id: ROW } });
  return row ? decryptSecret(row.secret, config.ENCRYPTION_KEY) : null;
}
