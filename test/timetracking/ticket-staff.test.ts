import { ticketStaffSignature } from "@mw/shared/identity";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeHarvest } from "../fakes/harvest.ts";
import { startApi, type TestApi } from "../support/api.ts";
import { newTicketId, SECURITY_KEY } from "../support/tickets.ts";
import { connectStaff, enableTimeTracking, staffMember, TIME_OPTIONS } from "../support/timetracking.ts";

// The osTicket plugin's proxy speaks for the signed-in agent with X-Ticket-Staff (issue 22, design 10.1).
let harvest: FakeHarvest;
let api: TestApi;
let staff: { staffId: number; authorization: string };

const now = () => Math.floor(Date.now() / 1000);

function signed(staffId: number, method: string, path: string, options: { key?: string; time?: number } = {}): string {
  const time = options.time ?? now();
  return `${staffId}:${time}:${ticketStaffSignature(options.key ?? SECURITY_KEY, staffId, time, method, path)}`;
}

async function call(method: string, path: string, header: string) {
  const res = await fetch(`${api.url}${path}`, { method, headers: { "x-ticket-staff": header } });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

beforeAll(async () => {
  harvest = await new FakeHarvest().start();
  api = await startApi({ HARVEST_ID_URL: harvest.url, HARVEST_API_URL: harvest.url });
  await api.ctx.options.set({ ai_security_key: SECURITY_KEY });
  await enableTimeTracking(api, harvest);
  staff = await staffMember(api);
  await connectStaff(api, harvest, staff.authorization);
});
afterAll(async () => {
  await api.ctx.options.set({ ai_security_key: null, ...Object.fromEntries(TIME_OPTIONS.map((name) => [name, null])) });
  await api.close();
  await harvest.stop();
});

describe("staff AJAX for an agent the ticket system signs for", () => {
  it("answers as that staff member", async () => {
    const path = "/scp/ajax.php/timetracking/status";
    const answer = await call("GET", path, signed(staff.staffId, "GET", path));
    expect(answer).toMatchObject({ status: 200, body: { success: true, data: { connected: true } } });
  });

  it("refuses a wrong key, another request's signature, an old signature and an agent without a platform user", async () => {
    const path = "/scp/ajax.php/timetracking/status";
    expect(await call("GET", path, signed(staff.staffId, "GET", path, { key: "not-the-key" }))).toEqual({ status: 403, body: { success: false, data: "X-Ticket-Staff signature does not match." } });
    expect(await call("GET", path, signed(staff.staffId, "GET", "/scp/ajax.php/timetracking/connect-url"))).toEqual({ status: 403, body: { success: false, data: "X-Ticket-Staff signature does not match." } });
    expect(await call("POST", "/scp/ajax.php/timetracking/disconnect", signed(staff.staffId, "GET", "/scp/ajax.php/timetracking/disconnect"))).toEqual({ status: 403, body: { success: false, data: "X-Ticket-Staff signature does not match." } });
    expect(await call("GET", path, signed(staff.staffId, "GET", path, { time: now() - 301 }))).toEqual({ status: 403, body: { success: false, data: "X-Ticket-Staff has expired: check both clocks." } });
    const stranger = newTicketId();
    expect(await call("GET", path, signed(stranger, "GET", path))).toEqual({
      status: 403,
      body: { success: false, data: `No platform user is linked to staff member ${stranger} (pnpm cli user:create --capabilities staff --staff-id ${stranger}).` },
    });
    // Still connected: the refused disconnect did nothing.
    expect((await call("GET", path, signed(staff.staffId, "GET", path))).body).toMatchObject({ data: { connected: true } });
  });

  it("is accepted only on the staff AJAX root, never for REST routes", async () => {
    const path = "/tickets/v1/snapshots";
    const answer = await call("GET", path, signed(staff.staffId, "GET", path));
    expect(answer.status).toBe(403);
    expect(answer.body).toMatchObject({ code: "rest_forbidden", message: "X-Ticket-Staff is not accepted here." });
  });
});
