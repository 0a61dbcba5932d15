import { createHmac } from "node:crypto";
import { safeEqual } from "@mw/platform/crypto";
import type { Connections } from "@mw/platform/connections";
import type { Principal } from "./principal.ts";
import { ticketBridgeSecret } from "./ticket-bridge-secret.ts";

/** How far ahead of our clock a signature's time may be (the ticket system's clock running fast). */
const TICKET_STAFF_MAX_FUTURE_SECONDS = 30;
/** How old a signature may be: the request's time in flight plus the ticket system's clock running slow. */
const TICKET_STAFF_MAX_AGE_SECONDS = 120;

/** What the signature binds: the request as the platform received it. */
interface SignedStaffRequest {
  method: string;
  /** The path with its query, as sent. */
  path: string;
  /** Hex SHA-256 of the body's bytes (of nothing for a request without a body). */
  bodySha256: string;
}

/**
 * The signature the ticket system's plugin puts in `X-Ticket-Staff`
 * (`<staff id>:<unix time>:<nonce>:<hex>`): HMAC-SHA256 with the agent
 * signing secret (`pnpm cli ticket-bridge:secret`, never the shared
 * ai_security_key) over the staff id, the time, a nonce, the method, the path
 * with its query and the body's SHA-256. A captured header opens no other
 * request, carries no other body, and is accepted once.
 */
export function ticketStaffSignature(secret: string, staffId: number, time: number, nonce: string, request: SignedStaffRequest): string {
  const signed = [staffId, time, nonce, request.method.toUpperCase(), request.path, request.bodySha256].join("\n");
  return createHmac("sha256", secret).update(signed).digest("hex");
}

type TicketStaffCheck = { ok: true; staffId: number; signature: string } | { ok: false; reason: string };

/** The header's form and time window, and its signature with `secret`; whether it was used before is claimTicketStaffSignature's. */
export function checkTicketStaff(header: string, secret: string, request: SignedStaffRequest, nowSeconds = Math.floor(Date.now() / 1000)): TicketStaffCheck {
  const trimmed = header.trim();
  const match = /^(\d{1,10}):(\d{1,12}):([0-9a-f]{32}):([0-9a-f]{64})$/.exec(trimmed);
  if (!match) {
    // The plugin before issue 35 signed "<id>:<time>:<hmac>" with ai_security_key.
    if (/^\d{1,10}:\d{1,12}:[0-9a-f]{64}$/.test(trimmed)) return { ok: false, reason: "X-Ticket-Staff is signed the old way: run the plugin's bin/configure.php again (integrations/osticket/README.md, \"Upgrading\")." };
    return { ok: false, reason: "Malformed X-Ticket-Staff header." };
  }
  const [, staff, time, nonce, signature] = match as unknown as [string, string, string, string, string];
  const staffId = Number(staff);
  const age = nowSeconds - Number(time);
  if (age < -TICKET_STAFF_MAX_FUTURE_SECONDS) return { ok: false, reason: "X-Ticket-Staff is dated in the future: check both clocks." };
  if (age > TICKET_STAFF_MAX_AGE_SECONDS) return { ok: false, reason: "X-Ticket-Staff has expired: check both clocks." };
  if (!safeEqual(signature, ticketStaffSignature(secret, staffId, Number(time), nonce, request))) return { ok: false, reason: "X-Ticket-Staff signature does not match." };
  return { ok: true, staffId, signature };
}

/**
 * How long a used signature is remembered. The time check counts whole
 * seconds at both ends, so a signature first used 30 s ahead passes for up to
 * 151 s of real time (30 + 120 + the second it is read in); the margin covers
 * API processes whose clocks differ by up to that much, each of which may
 * claim it at its own edge of the window.
 */
const REPLAY_CLOCK_MARGIN_SECONDS = 30;
const TICKET_STAFF_REPLAY_MEMORY_SECONDS = TICKET_STAFF_MAX_FUTURE_SECONDS + TICKET_STAFF_MAX_AGE_SECONDS + 1 + REPLAY_CLOCK_MARGIN_SECONDS;

/**
 * Records a valid signature as used: true the first time, false for a
 * replay. The key outlives the time the signature could pass the time check,
 * so every replay finds it.
 */
export async function claimTicketStaffSignature({ redis, config }: Pick<Connections, "redis" | "config">, signature: string): Promise<boolean> {
  const key = `${config.QUEUE_PREFIX}:ticket-staff:used:${signature}`;
  return (await redis.set(key, "1", "EX", TICKET_STAFF_REPLAY_MEMORY_SECONDS, "NX")) === "OK";
}

/**
 * An agent the ticket system vouched for (design 10.1), as staff only: the
 * ticket system speaks for agents, not for administrators. No platform user
 * is needed (what is kept per agent, conversations, notifications and the
 * time-tracking connection, is keyed by staff id); a linked user lends its login to the logs.
 */
async function ticketStaffPrincipal({ prisma }: Pick<Connections, "prisma">, staffId: number): Promise<Principal> {
  const user = await prisma.user.findUnique({ where: { staff_id: staffId }, select: { id: true, login: true } });
  return { userId: user?.id ?? null, login: user?.login ?? `ticket-staff:${staffId}`, capabilities: ["staff"], via: "ticket_system", staffId };
}

type TicketStaffOutcome =
  | { outcome: "agent"; principal: Principal }
  /** Not signed by the ticket system as it is now set up (no secret, wrong form, time or signature). */
  | { outcome: "refused"; reason: string }
  /** A signature that was already accepted once. */
  | { outcome: "replayed"; reason: string };

/** Who an `X-Ticket-Staff` header speaks for: the signing secret, the header's checks, its one use, then the agent. */
export async function verifyTicketStaff(deps: Pick<Connections, "prisma" | "redis" | "config">, header: string, request: SignedStaffRequest): Promise<TicketStaffOutcome> {
  const secret = await ticketBridgeSecret(deps);
  if (!secret) return { outcome: "refused", reason: "X-Ticket-Staff is not accepted: no agent signing secret is set (run the plugin's bin/configure.php, which sets one with pnpm cli ticket-bridge:secret)." };
  const check = checkTicketStaff(header, secret, request);
  if (!check.ok) return { outcome: "refused", reason: check.reason };
  if (!(await claimTicketStaffSignature(deps, check.signature))) return { outcome: "replayed", reason: "X-Ticket-Staff was already used: each signed request is accepted once." };
  return { outcome: "agent", principal: await ticketStaffPrincipal(deps, check.staffId) };
}
