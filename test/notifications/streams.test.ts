import { createUser, setLoginPassword } from "@mw/domains/identity";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { basicAuth, startApi, uniqueLogin, type TestApi } from "../support/api.ts";
import { newTicketId } from "../support/tickets.ts";
import { until } from "../support/wait.ts";

const STREAM = "/scp/ajax.php/notifications/stream";

let api: TestApi;
const open: AbortController[] = [];

beforeAll(async () => {
  // Keep-alives every second, so the one that finds a session ended comes within the test.
  api = await startApi({ NOTIFICATION_STREAM_HEARTBEAT_SECONDS: "1" });
});
afterEach(() => {
  for (const controller of open.splice(0)) controller.abort();
});
afterAll(() => api.close());

async function staffMember(): Promise<{ authorization: string; login: string }> {
  const user = await createUser(api.ctx, { login: uniqueLogin("streams"), capabilities: ["staff"], staffId: newTicketId() });
  return { authorization: basicAuth(user.login, user.application_password), login: user.login };
}

/** Opens a stream as a tab does and waits for its first event; the answer of a refused one is read whole. */
async function openStream(headers: Record<string, string>, query = "") {
  const controller = new AbortController();
  open.push(controller);
  const res = await fetch(`${api.url}${STREAM}${query}`, { headers: { accept: "text/event-stream", ...headers }, signal: controller.signal });
  if (res.status !== 200) return { status: res.status, body: (await res.json()) as unknown, close: () => controller.abort(), ended: Promise.resolve() };
  const reader = res.body!.getReader();
  const first = await reader.read();
  expect(new TextDecoder().decode(first.value)).toContain("event: unread");
  // Resolves when the server ends the stream.
  const ended = (async () => {
    for (;;) if ((await reader.read().catch(() => ({ done: true }))).done) return;
  })();
  return { status: 200, body: undefined, close: () => controller.abort(), ended };
}

describe("notification streams per staff member", () => {
  it("refuses the newest stream past NOTIFICATION_STREAMS_PER_STAFF (5) with 429, and takes one again once a tab closes", async () => {
    const sam = await staffMember();
    const streams = [];
    for (let i = 0; i < 5; i += 1) streams.push(await openStream({ authorization: sam.authorization }));
    expect(streams.map((stream) => stream.status)).toEqual([200, 200, 200, 200, 200]);

    const sixth = await openStream({ authorization: sam.authorization });
    expect(sixth).toMatchObject({ status: 429, body: { success: false, data: "You have 5 notification streams open already (other tabs or windows); close one first." } });
    // Another staff member's streams are counted apart.
    expect((await openStream({ authorization: (await staffMember()).authorization })).status).toBe(200);

    streams[0]!.close();
    await until(async () => {
      const again = await openStream({ authorization: sam.authorization });
      if (again.status === 200) return true;
      again.close();
      return false;
    }, () => "a stream slot to come free after a tab closed");
    expect((await openStream({ authorization: sam.authorization })).status).toBe(429);
  });

  it("ends an open stream once its session ends with a new password", async () => {
    const { login } = await staffMember();
    await setLoginPassword(api.ctx, login, "the first password");
    const res = await fetch(`${api.url}/middleware/v1/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ login, password: "the first password" }) });
    const { nonce } = (await res.json()) as { nonce: string };
    const cookie = (res.headers.get("set-cookie") ?? "").split(";")[0]!;
    const stream = await openStream({ cookie }, `?_wpnonce=${encodeURIComponent(nonce)}`);
    expect(stream.status).toBe(200);

    await setLoginPassword(api.ctx, login, "the second password");
    // The next heartbeat finds the session gone.
    const ended = await Promise.race([stream.ended.then(() => true), new Promise((resolve) => setTimeout(() => resolve(false), 30_000))]);
    expect(ended).toBe(true);
  });
});
