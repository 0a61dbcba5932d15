import { applyStaffRecord } from "@mw/domains/tickets";
import { createUser, setLoginPassword } from "@mw/domains/identity";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApi, uniqueLogin, type TestApi } from "../support/api.ts";
import { newTicketId, postSignal, SECURITY_KEY } from "../support/tickets.ts";

// A staff.updated signal decides where CRITICAL alerts go (e-mail, phone, department, manager flags), and whoever
// holds the ticket system's key (or set it, with manage_options) can send one: each such change is recorded with the
// signal that made it, logged, and listed on the console's operations page.

let api: TestApi;
let cookie: string;
const PASSWORD = "operations password 1";

beforeAll(async () => {
  api = await startApi();
  await api.ctx.options.set({ ai_security_key: SECURITY_KEY });
  const login = uniqueLogin("ops");
  await createUser(api.ctx, { login, capabilities: ["manage_middleware"] });
  await setLoginPassword(api.ctx, login, PASSWORD);
  const res = await fetch(`${api.url}/console/login`, {
    method: "POST",
    redirect: "manual",
    headers: { origin: api.url, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ login, password: PASSWORD, next: "/console" }).toString(),
  });
  cookie = res.headers.getSetCookie().map((line) => line.split(";")[0]).join("; ");
});
afterAll(async () => {
  await api.ctx.options.set({ ai_security_key: null });
  await api.close();
});

const changesOf = (staffId: number) => api.ctx.prisma.staffRecipientChange.findMany({ where: { staff_id: staffId }, orderBy: { id: "asc" } });

describe("staff directory changes that move alerts", () => {
  it("records each change of e-mail, phone or manager flags with its signal, and none for a change of name alone", async () => {
    const id = newTicketId();
    const member = { id, name: "Sam Lee", email: "sam@agency.example", phone: "+15550100", department_id: 2, is_project_manager: false, is_department_manager: false };
    expect((await postSignal(api, { signal: "staff.updated", staff: member })).status).toBe(200);
    expect((await postSignal(api, { signal: "staff.updated", staff: { ...member, name: "Sam R. Lee" } })).status).toBe(200);
    const moved = { ...member, name: "Sam R. Lee", email: "attacker@evil.example", is_project_manager: true };
    expect((await postSignal(api, { signal: "staff.updated", staff: moved })).status).toBe(200);
    // The same signal again changes nothing, and records nothing.
    expect((await postSignal(api, { signal: "staff.updated", staff: moved })).body).toMatchObject({ changed: false });

    const rows = await changesOf(id);
    expect(rows.map((row) => ({ source: row.source, changes: JSON.parse(row.changes) as unknown }))).toEqual([
      { source: "signal", changes: { email: { from: null, to: "sam@agency.example" }, phone: { from: null, to: "+15550100" }, department_id: { from: null, to: 2 } } },
      { source: "signal", changes: { email: { from: "sam@agency.example", to: "attacker@evil.example" }, is_project_manager: { from: false, to: true } } },
    ]);
    expect(JSON.parse(rows[1]!.signal)).toMatchObject({ signal: "staff.updated", staff: { id, email: "attacker@evil.example", is_project_manager: true } });
    expect(rows[1]!.staff_name).toBe("Sam R. Lee");
  });

  it("records a staff:import from the shell as such", async () => {
    const id = newTicketId();
    await applyStaffRecord(api.ctx, { id, name: "Imported", email: "imp@agency.example", phone: null, department_id: null, is_project_manager: false, is_department_manager: true });
    expect((await changesOf(id)).map((row) => row.source)).toEqual(["staff:import"]);
  });

  it("lists the changes on the console's operations page, with the signal", async () => {
    const id = newTicketId();
    await postSignal(api, { signal: "staff.updated", staff: { id, name: "Shown Member", email: "shown@agency.example", is_department_manager: true } });
    const html = await (await fetch(`${api.url}/console/operations`, { headers: { cookie } })).text();
    expect(html).toContain('<table id="recipient-changes"');
    const row = new RegExp(`<tr data-staff-id="${id}">([\\s\\S]*?)</tr>`).exec(html)?.[1] ?? "";
    expect(row).toContain("Shown Member");
    expect(row).toContain("<code>email</code>: (none) → <strong>shown@agency.example</strong>");
    expect(row).toContain("<code>is_department_manager</code>: (none) → <strong>true</strong>");
    expect(row).toContain("<td>signal</td>");
    expect(row).toContain("&quot;signal&quot;:&quot;staff.updated&quot;");
  });
});
