import { createHash } from "node:crypto";
import { checkTicketStaff, claimTicketStaffSignature, rotateTicketBridgeSecret, ticketStaffSignature } from "@mw/domains/identity";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeHarvest } from "../fakes/harvest.ts";
import { restCall, startApi, userWith, type TestApi } from "../support/api.ts";
import { runCli } from "../support/processes.ts";
import { newTicketId, SECURITY_KEY } from "../support/tickets.ts";
import { connectStaff, enableTimeTracking, staffMember, TIME_OPTIONS } from "../support/timetracking.ts";

// The osTicket plugin's proxy speaks for the signed-in agent with X-Ticket-Staff (issue 22, design 10.1),
// signed with a secret of its own (issue 35): not the ai_security_key option, which manage_options users can set.
let harvest: FakeHarvest;
let api: TestApi;
let staff: { staffId: number; authorization: string };
let secret: string;

const now = () => Math.floor(Date.now() / 1000);
const sha256 = (body: string) => createHash("sha256").update(body).digest("hex");
let nonces = 0;
const nonce = () => (nonces += 1).toString(16).padStart(32, "0");

interface SignOptions {
  secret?: string;
  time?: number;
  /** The body the signature covers (default: the one sent). */
  body?: string;
}

function signed(staffId: number, method: string, path: string, body = "", options: SignOptions = {}): string {
  const time = options.time ?? now();
  const once = nonce();
  const signature = ticketStaffSignature(options.secret ?? secret, staffId, time, once, { method, path, bodySha256: sha256(options.body ?? body) });
  return `${staffId}:${time}:${once}:${signature}`;
}

async function call(method: string, path: string, header: string, body?: string) {
  const headers: Record<string, string> = { "x-ticket-staff": header };
  if (body !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(`${api.url}${path}`, { method, headers, body });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function newSecretFromCli(): Promise<string> {
  const { code, stdout } = await runCli("ticket-bridge:secret");
  expect(code).toBe(0);
  return (JSON.parse(stdout) as { ticket_bridge_secret: string }).ticket_bridge_secret;
}

const STATUS = "/scp/ajax.php/timetracking/status";
const refused = (data: string) => ({ status: 403, body: { success: false, data } });

beforeAll(async () => {
  harvest = await new FakeHarvest().start();
  api = await startApi({ HARVEST_ID_URL: harvest.url, HARVEST_API_URL: harvest.url });
  await api.ctx.options.set({ ai_security_key: SECURITY_KEY });
  await enableTimeTracking(api, harvest);
  staff = await staffMember(api);
  await connectStaff(api, harvest, staff.authorization);
  secret = await rotateTicketBridgeSecret(api.ctx);
});
afterAll(async () => {
  await api.ctx.options.set({ ai_security_key: null, ...Object.fromEntries(TIME_OPTIONS.map((name) => [name, null])) });
  await api.close();
  await harvest.stop();
});

describe("the agent signing secret (pnpm cli ticket-bridge:secret)", () => {
  it("is printed once, stored encrypted, and a new one replaces the old at once", async () => {
    expect((await call("GET", STATUS, signed(staff.staffId, "GET", STATUS))).status).toBe(200);
    const previous = secret;
    secret = await newSecretFromCli();
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(secret).not.toBe(previous);
    const row = await api.ctx.prisma.ticketBridgeSecret.findUniqueOrThrow({ where: { id: 1 } });
    expect(row.secret).not.toContain(secret);
    expect(await call("GET", STATUS, signed(staff.staffId, "GET", STATUS, "", { secret: previous }))).toEqual(refused("X-Ticket-Staff signature does not match."));
    expect((await call("GET", STATUS, signed(staff.staffId, "GET", STATUS))).status).toBe(200);
  });

  it("refuses every agent while none is set", async () => {
    await api.ctx.prisma.ticketBridgeSecret.deleteMany();
    expect(await call("GET", STATUS, signed(staff.staffId, "GET", STATUS))).toEqual(
      refused("X-Ticket-Staff is not accepted: no agent signing secret is set (run the plugin's bin/configure.php, which sets one with pnpm cli ticket-bridge:secret)."),
    );
    secret = await rotateTicketBridgeSecret(api.ctx);
  });

  it("is neither shown nor set through the options API, and ai_security_key signs no agent", async () => {
    const admin = await userWith(api, "manage_options");
    const settings = await restCall(`${api.url}/ai/settings`, "GET", undefined, admin);
    expect(settings.status).toBe(200);
    expect(JSON.stringify(settings.body)).not.toContain(secret);
    expect(Object.keys(settings.body.settings as object).filter((name) => /bridge|signing|staff/.test(name))).toEqual([]);

    const forged = "x".repeat(43);
    expect(await restCall(`${api.url}/ai/settings`, "PUT", { ticket_bridge_secret: forged }, admin)).toMatchObject({ status: 400, body: { code: "invalid_params", message: "Unknown option: ticket_bridge_secret." } });
    expect(await call("GET", STATUS, signed(staff.staffId, "GET", STATUS, "", { secret: forged }))).toEqual(refused("X-Ticket-Staff signature does not match."));

    // What issue 35 did: set the shared key through the options API, then sign as any agent with it.
    const chosen = "chosen-by-a-manage-options-user-0123456789";
    expect((await restCall(`${api.url}/ai/settings`, "PUT", { ai_security_key: chosen }, admin)).status).toBe(200);
    expect(await call("GET", STATUS, signed(staff.staffId, "GET", STATUS, "", { secret: chosen }))).toEqual(refused("X-Ticket-Staff signature does not match."));
    await api.ctx.options.set({ ai_security_key: SECURITY_KEY });
  });
});

describe("staff AJAX for an agent the ticket system signs for", () => {
  it("answers as that staff member", async () => {
    const answer = await call("GET", STATUS, signed(staff.staffId, "GET", STATUS));
    expect(answer).toMatchObject({ status: 200, body: { success: true, data: { connected: true } } });
  });

  it("accepts each signature once: a replay is 401", async () => {
    const header = signed(staff.staffId, "GET", STATUS);
    expect((await call("GET", STATUS, header)).status).toBe(200);
    expect(await call("GET", STATUS, header)).toEqual({ status: 401, body: { success: false, data: "X-Ticket-Staff was already used: each signed request is accepted once." } });
  });

  it("remembers a used signature for longer than it passes the time check", async () => {
    const request = { method: "GET", path: STATUS, bodySha256: sha256("") };
    // The real time a signature dated 30 s ahead passes, read at whole seconds
    // as the check reads the clock: from the first second it is not too far
    // ahead to the end of the last second it is not too old.
    const time = 1_800_000_000;
    const once = nonce();
    const header = `7:${time}:${once}:${ticketStaffSignature(secret, 7, time, once, request)}`;
    const passing = Array.from({ length: 400 }, (_, i) => time - 200 + i).filter((at) => checkTicketStaff(header, secret, request, at).ok);
    const passesForMs = (passing.at(-1)! + 1 - passing[0]!) * 1000;
    expect(passesForMs).toBe(151_000);
    const signature = `replay-memory-${once}`;
    expect(await claimTicketStaffSignature(api.ctx, signature)).toBe(true);
    const remembersForMs = await api.ctx.redis.pttl(`${api.ctx.config.QUEUE_PREFIX}:ticket-staff:used:${signature}`);
    expect(remembersForMs).toBeGreaterThan(passesForMs);
    expect(await claimTicketStaffSignature(api.ctx, signature)).toBe(false);
  });

  it("signs the body: another body under a valid header is refused", async () => {
    const path = "/scp/ajax.php/ai-assistant/conversations";
    const body = JSON.stringify({ title: "Checkout incidents" });
    const forged = JSON.stringify({ title: "Something else" });
    expect(await call("POST", path, signed(staff.staffId, "POST", path, forged, { body }), forged)).toEqual(refused("X-Ticket-Staff signature does not match."));
    // No body at all where one was signed, either.
    expect(await call("POST", path, signed(staff.staffId, "POST", path, "", { body }))).toEqual(refused("X-Ticket-Staff signature does not match."));
    const created = await call("POST", path, signed(staff.staffId, "POST", path, body), body);
    expect(created).toMatchObject({ status: 201, body: { success: true, data: { title: "Checkout incidents" } } });
  });

  it("refuses a signature 31 s in the future or over 120 s old", async () => {
    // Rounded so that the platform's clock, read a moment later, still sees the full 31 s.
    const ahead = Math.ceil(Date.now() / 1000) + 31;
    expect(await call("GET", STATUS, signed(staff.staffId, "GET", STATUS, "", { time: ahead }))).toEqual(refused("X-Ticket-Staff is dated in the future: check both clocks."));
    expect(await call("GET", STATUS, signed(staff.staffId, "GET", STATUS, "", { time: now() - 121 }))).toEqual(refused("X-Ticket-Staff has expired: check both clocks."));
    expect((await call("GET", STATUS, signed(staff.staffId, "GET", STATUS, "", { time: now() - 60 }))).status).toBe(200);
  });

  it("draws the window at 30 s ahead and 120 s behind", () => {
    const request = { method: "GET", path: STATUS, bodySha256: sha256("") };
    const at = 1_800_000_000;
    const check = (time: number) => {
      const once = nonce();
      return checkTicketStaff(`7:${time}:${once}:${ticketStaffSignature(secret, 7, time, once, request)}`, secret, request, at);
    };
    expect(check(at + 30)).toMatchObject({ ok: true, staffId: 7 });
    expect(check(at + 31)).toEqual({ ok: false, reason: "X-Ticket-Staff is dated in the future: check both clocks." });
    expect(check(at - 120)).toMatchObject({ ok: true });
    expect(check(at - 121)).toEqual({ ok: false, reason: "X-Ticket-Staff has expired: check both clocks." });
  });

  it("refuses a wrong secret, another request's signature and the old header form", async () => {
    expect(await call("GET", STATUS, signed(staff.staffId, "GET", STATUS, "", { secret: "not-the-secret" }))).toEqual(refused("X-Ticket-Staff signature does not match."));
    expect(await call("GET", STATUS, signed(staff.staffId, "GET", "/scp/ajax.php/timetracking/connect-url"))).toEqual(refused("X-Ticket-Staff signature does not match."));
    expect(await call("POST", "/scp/ajax.php/timetracking/disconnect", signed(staff.staffId, "GET", "/scp/ajax.php/timetracking/disconnect"))).toEqual(refused("X-Ticket-Staff signature does not match."));
    const old = `${staff.staffId}:${now()}:${"0".repeat(64)}`;
    expect(await call("GET", STATUS, old)).toEqual(refused('X-Ticket-Staff is signed the old way: run the plugin\'s bin/configure.php again (integrations/osticket/README.md, "Upgrading").'));
    // Still connected: the refused disconnect did nothing.
    expect((await call("GET", STATUS, signed(staff.staffId, "GET", STATUS))).body).toMatchObject({ data: { connected: true } });
  });

  it("needs no platform user: an agent without one is staff, with data of their own keyed by staff id (issue 31)", async () => {
    const agent = newTicketId();
    expect(await api.ctx.prisma.user.count({ where: { staff_id: agent } })).toBe(0);
    expect(await call("GET", STATUS, signed(agent, "GET", STATUS))).toEqual({ status: 200, body: { success: true, data: { connected: false } } });
    const conversations = "/scp/ajax.php/ai-assistant/conversations";
    const body = JSON.stringify({ title: "Agent without a user" });
    expect(await call("POST", conversations, signed(agent, "POST", conversations, body), body)).toMatchObject({ status: 201, body: { success: true, data: { title: "Agent without a user" } } });
    expect((await call("GET", conversations, signed(agent, "GET", conversations))).body).toMatchObject({ data: { conversations: [{ title: "Agent without a user" }] } });
    // Another agent does not see them.
    const others = (await call("GET", conversations, signed(staff.staffId, "GET", conversations))).body as { data: { conversations: { title: string }[] } };
    expect(others.data.conversations.map((row) => row.title)).not.toContain("Agent without a user");
    expect(await call("GET", "/scp/ajax.php/notifications", signed(agent, "GET", "/scp/ajax.php/notifications"))).toEqual({ status: 200, body: { success: true, data: { unread: 0, notifications: [] } } });
  });

  it("is accepted only on the staff AJAX root, never for REST routes", async () => {
    const path = "/tickets/v1/snapshots";
    const answer = await call("GET", path, signed(staff.staffId, "GET", path));
    expect(answer.status).toBe(403);
    expect(answer.body).toMatchObject({ code: "rest_forbidden", message: "X-Ticket-Staff is not accepted here." });
  });
});
