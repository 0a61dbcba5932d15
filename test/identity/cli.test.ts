import { issueImageApiKey } from "@mw/domains/images";
import { describe, expect, it, beforeAll, afterAll } from "vitest";
import { basicAuth, startApi, uniqueLogin, type TestApi } from "../support/api.ts";
import { runCli as cli, runCliProcess, runCliProcessLoading } from "../support/processes.ts";

let api: TestApi;
beforeAll(async () => {
  api = await startApi();
});
afterAll(() => api.close());

describe("pnpm cli user:*", () => {
  it("creates a user whose application password works, and revokes it", async () => {
    const login = uniqueLogin("cli");
    const created = await cli("user:create", "--login", login, "--capabilities", "manage_middleware,manage_options");
    expect(created.code).toBe(0);
    const lines = created.stdout.trim().split("\n");
    expect(lines).toHaveLength(1);
    const user = JSON.parse(lines[0]!) as { login: string; capabilities: string[]; application_password: string };
    expect(user).toMatchObject({ login, capabilities: ["manage_middleware", "manage_options"] });
    const me = await fetch(`${api.url}/middleware/v1/auth/me`, { headers: { authorization: basicAuth(login, user.application_password) } });
    expect(me.status).toBe(200);

    const revoked = await cli("user:revoke-app-password", "--login", login, "--name", "cli");
    expect(revoked.code).toBe(0);
    expect(JSON.parse(revoked.stdout)).toEqual({ login, revoked: 1 });
    const after = await fetch(`${api.url}/middleware/v1/auth/me`, { headers: { authorization: basicAuth(login, user.application_password) } });
    expect(after.status).toBe(403);
  });

  it("sets a login password that starts a session", async () => {
    const login = uniqueLogin("clipw");
    expect((await cli("user:create", "--login", login, "--capabilities", "staff")).code).toBe(0);
    const set = await cli("user:password", "--login", login);
    expect(set.code).toBe(0);
    const { password } = JSON.parse(set.stdout) as { password: string };
    expect(password.length).toBeGreaterThanOrEqual(20);
    const res = await fetch(`${api.url}/middleware/v1/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ login, password }),
    });
    expect(res.status).toBe(200);
  });

  it("refuses a duplicate login, an unknown capability and a missing option with clear messages", async () => {
    const login = uniqueLogin("dup");
    expect((await cli("user:create", "--login", login, "--capabilities", "staff")).code).toBe(0);
    const duplicate = await cli("user:create", "--login", login, "--capabilities", "staff");
    expect(duplicate.code).toBe(1);
    expect(JSON.parse(duplicate.stderr)).toEqual({ error: `a user with login "${login}" already exists` });
    const unknown = await cli("user:create", "--login", uniqueLogin("u"), "--capabilities", "superuser");
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("unknown capabilities: superuser");
    const missing = await cli("user:create", "--login", uniqueLogin("m"));
    expect(missing.code).toBe(64);
    expect(missing.stderr).toContain("missing --capabilities");
  }, 180_000);
});

/** A session cookie for `login`, as the console's sign-in starts one. */
async function sessionCookie(login: string, password: string): Promise<string> {
  const res = await fetch(`${api.url}/middleware/v1/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ login, password }) });
  expect(res.status).toBe(200);
  return res.headers.getSetCookie().map((cookie) => cookie.split(";")[0]).join("; ");
}

const decodeHtml = (text: string) => text.replace(/&amp;/g, "&").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&#39;/g, "'").replace(/&quot;/g, '"');

describe("pnpm cli user:grant and user:revoke", () => {
  it("give an existing user the capability the console says it lacks, with the very command the console names", async () => {
    const login = uniqueLogin("grant");
    expect((await cli("user:create", "--login", login, "--capabilities", "staff")).code).toBe(0);
    const { password } = JSON.parse((await cli("user:password", "--login", login)).stdout) as { password: string };
    const cookie = await sessionCookie(login, password);
    const settings = () => fetch(`${api.url}/console/settings`, { headers: { cookie }, redirect: "manual" });

    const lacking = await settings();
    expect(lacking.status).toBe(403);
    const hint = /<p class="muted" id="grant-hint">[^<]*<code>([^<]+)<\/code>/.exec(await lacking.text())?.[1];
    expect(hint && decodeHtml(hint)).toBe(`pnpm cli user:grant ${login} manage_options`);
    const [, , ...args] = decodeHtml(hint!).split(" ");
    const granted = await cli(...args);
    expect(granted.code, granted.stderr).toBe(0);
    expect(JSON.parse(granted.stdout)).toEqual({ login, capabilities: ["manage_options", "staff"] });
    expect((await settings()).status).toBe(200);

    const revoked = await cli("user:revoke", login, "manage_options");
    expect(JSON.parse(revoked.stdout)).toEqual({ login, capabilities: ["staff"] });
    expect((await settings()).status).toBe(403);
  }, 180_000);

  it("link a staff id, and say clearly what is wrong", async () => {
    const login = uniqueLogin("link");
    const staffId = String(700_000 + (process.pid % 100_000));
    expect((await cli("user:create", "--login", login, "--capabilities", "manage_options")).code).toBe(0);
    const linked = await cli("user:grant", login, "staff", "--staff-id", staffId);
    expect(JSON.parse(linked.stdout)).toEqual({ login, capabilities: ["manage_options", "staff"], staff_id: Number(staffId) });

    const other = uniqueLogin("other");
    expect((await cli("user:create", "--login", other, "--capabilities", "staff")).code).toBe(0);
    const taken = await cli("user:grant", other, "staff", "--staff-id", staffId);
    expect([taken.code, JSON.parse(taken.stderr)]).toEqual([1, { error: `staff id ${staffId} already belongs to user "${login}"` }]);
    const nobody = await cli("user:grant", uniqueLogin("nobody"), "staff");
    expect([nobody.code, JSON.parse(nobody.stderr).error]).toEqual([1, expect.stringMatching(/^no user with login/)]);
    const none = await cli("user:grant", login);
    expect(none.code).toBe(64);
    expect(none.stderr).toContain("user:grant takes LOGIN CAPABILITY...");
    const unknown = await cli("user:revoke", login, "root");
    expect([unknown.code, unknown.stderr]).toEqual([1, expect.stringContaining("unknown capabilities: root")]);
  }, 180_000);

  it("user:create run again for the same user says the login exists, not that its own staff id belongs to another user", async () => {
    const login = uniqueLogin("again");
    const staffId = String(800_000 + (process.pid % 100_000));
    expect((await cli("user:create", "--login", login, "--capabilities", "staff", "--staff-id", staffId)).code).toBe(0);
    const again = await cli("user:create", "--login", login, "--capabilities", "staff,manage_options", "--staff-id", staffId);
    expect([again.code, JSON.parse(again.stderr)]).toEqual([
      1,
      { error: `a user with login "${login}" already exists; to give it manage_options: pnpm cli user:grant ${login} manage_options` },
    ]);
    const someoneElse = await cli("user:create", "--login", uniqueLogin("else"), "--capabilities", "staff", "--staff-id", staffId);
    expect(JSON.parse(someoneElse.stderr)).toEqual({ error: `staff id ${staffId} already belongs to user "${login}"` });
  }, 180_000);
});

describe("pnpm cli commands given a file that is not there", () => {
  it("answer one line naming the path tried, without a stack trace", async () => {
    for (const command of ["staff:import", "licenses:import", "items:import", "tickets:import"]) {
      const run = await cli(command, "no-such-file.csv");
      expect(run.code, command).toBe(1);
      expect(run.stderr.trim().split("\n"), command).toHaveLength(1);
      expect(JSON.parse(run.stderr), command).toEqual({ error: expect.stringMatching(/^no-such-file\.csv: no such file \(looked for \/.+\/no-such-file\.csv\)$/) });
    }
    const knowledge = await cli("knowledge:add", "--source", "wiki", "no-such-file.md");
    expect(JSON.parse(knowledge.stderr)).toEqual({ error: expect.stringMatching(/^no-such-file\.md: no such file/) });
  }, 180_000);
});

describe("pnpm cli image-key:*", () => {
  async function imageStatus(key: string): Promise<{ status: number; body: unknown }> {
    const res = await fetch(`${api.url}/api/image?api_key=${encodeURIComponent(key)}`);
    return { status: res.status, body: await res.json() };
  }

  it("issues a key that the image API accepts, shown once", async () => {
    const created = await cli("image-key:create", "--label", "Warranty portal");
    expect(created.code).toBe(0);
    const issued = JSON.parse(created.stdout) as { id: number; key: string };
    expect(Object.keys(issued).sort()).toEqual(["id", "key"]);
    expect(issued.key).toMatch(/^mwi_[A-Za-z0-9_-]{43}$/);
    const row = await api.ctx.prisma.imageApiKey.findUniqueOrThrow({ where: { id: issued.id } });
    expect(row.label).toBe("Warranty portal");
    expect(JSON.stringify(row)).not.toContain(issued.key);
    // Accepted: the request gets as far as the missing serial number.
    expect(await imageStatus(issued.key)).toEqual({ status: 400, body: { error: "Serial number is required" } });
  });

  it("revokes a key at once, and says so when there is no active key to revoke", async () => {
    const issued = await issueImageApiKey(api.ctx, "to revoke");
    expect((await imageStatus(issued.key)).status).toBe(400);
    const revoked = await cli("image-key:revoke", "--id", String(issued.id));
    expect(revoked.code).toBe(0);
    expect(JSON.parse(revoked.stdout)).toEqual({ id: issued.id, revoked: true });
    expect(await imageStatus(issued.key)).toEqual({ status: 401, body: { error: "401 Unauthorized. Access Not Allowed" } });

    const again = await cli("image-key:revoke", "--id", String(issued.id));
    expect(again.code).toBe(1);
    expect(JSON.parse(again.stderr)).toEqual({ error: `no active image-API key with id ${issued.id}` });
  });

  it("requires a label", async () => {
    const missing = await cli("image-key:create");
    expect(missing.code).toBe(64);
    expect(missing.stderr).toContain("missing --label");
  });
});

describe("pnpm cli review:add", () => {
  it("adds a review to the item with that SKU, and refuses a bad rating", async () => {
    const sku = `REV-${process.pid}`;
    const item = await api.ctx.prisma.item.create({ data: { sku, name: "Reviewed by CLI", price: 5, stock: 1 } });
    const added = await cli("review:add", "--sku", sku, "--author", "Dee", "--rating", "4", "--body", "Solid.", "--date", "2026-05-06");
    expect(added.code).toBe(0);
    const { id } = JSON.parse(added.stdout) as { id: number };
    expect(await api.ctx.prisma.itemReview.findUniqueOrThrow({ where: { id } })).toMatchObject({ item_id: item.id, author: "Dee", rating: 4, body: "Solid." });
    const bad = await cli("review:add", "--sku", sku, "--author", "Dee", "--rating", "0", "--body", "x");
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("rating");
  }, 180_000);
});

describe("pnpm cli as its own process", () => {
  it("prints one line of JSON and exits 0, and exits 64 on an unknown command (the other tests run it in process)", async () => {
    const shown = await runCliProcess("options:get", "urgency_max_per_run");
    expect([shown.code, shown.stdout.trim().split("\n").length], shown.stderr).toEqual([0, 1]);
    expect(JSON.parse(shown.stdout)).toMatchObject({ name: "urgency_max_per_run" });
    const unknown = await runCliProcess("no:such-command");
    expect([unknown.code, unknown.stderr]).toEqual([64, expect.stringContaining('unknown command "no:such-command"')]);
  });

  it("user:* loads the database's client and no Redis client, which only a command using the queues loads", async () => {
    const login = uniqueLogin("clirds");
    const created = await runCliProcessLoading("user:create", "--login", login, "--capabilities", "staff");
    expect(created.code, created.stderr).toBe(0);
    expect(created.packages).toContain("mariadb");
    expect(created.packages).not.toContain("ioredis");
    const queued = await runCliProcessLoading("order:show", "999999999");
    expect(queued.stderr).toContain("No order 999999999.");
    expect(queued.packages).toContain("ioredis");
  });

  it("--help lists every command with its summary, and COMMAND --help its arguments and options", async () => {
    const help = await cli("--help");
    expect(help.code).toBe(0);
    for (const line of ["user:create  create a user", "dispute:show  where a received dispute is"]) expect(help.stderr).toContain(line);
    const one = await cli("user:grant", "--help");
    expect([one.code, one.stderr]).toEqual([0, expect.stringContaining("usage: pnpm cli user:grant LOGIN CAPABILITY... [options]")]);
    expect(one.stderr).toContain("--staff-id VALUE");
  });
});
