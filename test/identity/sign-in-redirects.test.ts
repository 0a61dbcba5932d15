import { createUser, setLoginPassword } from "@mw/domains/identity";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApi, uniqueLogin, type TestApi } from "../support/api.ts";

// After signing in, a browser goes to `next`: only ever a page of this
// platform. Each of these would take it to evil.example once the URL parser
// has dropped the tab or newline, folded the backslash, or resolved the dot
// segments away (`/.//evil.example` is `//evil.example`).
const DOT_SEGMENTS = ["/.//evil.example/landed", "/./\\evil.example", "/a/..//evil.example", "/%2e//evil.example", "/x/.././/evil.example"];
const ELSEWHERE = [...DOT_SEGMENTS, "/\t/evil.example", "/\n/evil.example", "//evil.example", "/\\evil.example", "/\t\\evil.example/x", "https://evil.example/", "javascript:alert(1)", ""];

let api: TestApi;
let login: string;
const PASSWORD = "correct horse battery";

beforeAll(async () => {
  api = await startApi();
  login = uniqueLogin("next");
  await createUser(api.ctx, { login, capabilities: ["staff"] });
  await setLoginPassword(api.ctx, login, PASSWORD);
});
afterAll(() => api.close());

/** Where the Bull Board sign-in page will send the browser (the checked `next` it carries). */
async function boardNext(next: string): Promise<string> {
  const html = await (await fetch(`${api.url}/login?next=${encodeURIComponent(next)}`)).text();
  const found = /<form id="login" data-next="([^"]*)"/.exec(html);
  if (!found) throw new Error(`no data-next on the sign-in page:\n${html}`);
  return found[1]!.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));
}

/** Signs in through the console's form with this `next`; answers where the redirect goes. */
async function consoleSignIn(next: string): Promise<string | null> {
  const res = await fetch(`${api.url}/console/login`, {
    method: "POST",
    redirect: "manual",
    headers: { origin: api.url, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ login, password: PASSWORD, next }).toString(),
  });
  expect(res.status).toBe(303);
  return res.headers.get("location");
}

describe("next after signing in", () => {
  it("Bull Board's sign-in page sends the browser only to a path of this platform", async () => {
    for (const next of ELSEWHERE) expect(await boardNext(next), JSON.stringify(next)).toBe("/admin/queues");
    expect(await boardNext("/admin/queues/queue/orders?status=failed")).toBe("/admin/queues/queue/orders?status=failed");
  });

  it("the console's sign-in form redirects only to a path of this platform", async () => {
    for (const next of ELSEWHERE) expect(await consoleSignIn(next), JSON.stringify(next)).toBe("/console");
    expect(await consoleSignIn("/console/snapshots?level=HIGH")).toBe("/console/snapshots?level=HIGH");
    const form = await (await fetch(`${api.url}/console/login?next=${encodeURIComponent("/\t/evil.example")}`)).text();
    expect(form).toContain('<input type="hidden" name="next" value="/console">');
  });

  it("a signed-in browser sent to the console's sign-in page goes only to a path of this platform", async () => {
    const res = await fetch(`${api.url}/console/login`, {
      method: "POST",
      redirect: "manual",
      headers: { origin: api.url, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ login, password: PASSWORD, next: "/console" }).toString(),
    });
    const cookie = res.headers.getSetCookie().map((line) => line.split(";")[0]).join("; ");
    for (const next of DOT_SEGMENTS) {
      const again = await fetch(`${api.url}/console/login?next=${encodeURIComponent(next)}`, { redirect: "manual", headers: { cookie } });
      expect(again.status, JSON.stringify(next)).toBe(303);
      expect(again.headers.get("location"), JSON.stringify(next)).toBe("/console");
    }
  });
});
