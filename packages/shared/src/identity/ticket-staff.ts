import { createHmac } from "node:crypto";
import { type Connections, safeEqual } from "@mw/platform";
import type { Principal } from "./principal.ts";
import { parseCapabilities } from "./capabilities.ts";

/** How far the ticket system's clock and ours may disagree, and how long a signed request can be replayed. */
export const TICKET_STAFF_MAX_SKEW_SECONDS = 300;

/**
 * The signature the ticket system's plugin puts in `X-Ticket-Staff`
 * (`<staff id>:<unix time>:<hex>`): HMAC-SHA256 with the shared
 * `ai_security_key` over the staff id, the time, the method and the path
 * with its query, so a captured header opens nothing else and expires.
 */
export function ticketStaffSignature(key: string, staffId: number, time: number, method: string, path: string): string {
  return createHmac("sha256", key).update(`${staffId}\n${time}\n${method.toUpperCase()}\n${path}`).digest("hex");
}

export type TicketStaffCheck = { ok: true; staffId: number } | { ok: false; reason: string };

export function checkTicketStaff(header: string, key: string, method: string, path: string, nowSeconds = Math.floor(Date.now() / 1000)): TicketStaffCheck {
  const match = /^(\d{1,10}):(\d{1,12}):([0-9a-f]{64})$/.exec(header.trim());
  if (!match) return { ok: false, reason: "Malformed X-Ticket-Staff header." };
  const [, staff, time, signature] = match as unknown as [string, string, string, string];
  const staffId = Number(staff);
  if (Math.abs(nowSeconds - Number(time)) > TICKET_STAFF_MAX_SKEW_SECONDS) return { ok: false, reason: "X-Ticket-Staff has expired: check both clocks." };
  if (!safeEqual(signature, ticketStaffSignature(key, staffId, Number(time), method, path))) return { ok: false, reason: "X-Ticket-Staff signature does not match." };
  return { ok: true, staffId };
}

/**
 * The platform user of an agent the ticket system vouched for (design 10.1:
 * a user with capability `staff` and that staff id). It acts as staff only:
 * the ticket system speaks for agents, not for administrators.
 */
export async function ticketStaffPrincipal({ prisma }: Pick<Connections, "prisma">, staffId: number): Promise<Principal | null> {
  const user = await prisma.user.findUnique({ where: { staff_id: staffId } });
  if (!user || !parseCapabilities(user.capabilities).includes("staff")) return null;
  return { userId: user.id, login: user.login, capabilities: ["staff"], via: "ticket_system", staffId };
}
