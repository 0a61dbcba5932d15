import { createUser } from "@mw/domains/identity";
import { expect } from "vitest";
import type { FakeHarvest } from "../fakes/harvest.ts";
import { basicAuth, uniqueLogin, type TestApi } from "./api.ts";
import { newTicketId } from "./tickets.ts";

export const TIME_OPTIONS = [
  "time_api.enabled",
  "time_api.client_id",
  "time_api.client_secret",
  "time_api.redirect_uri",
  "time_api.sync_user_agent",
  "time_api.default_task_id",
  "time_api.sync_account_id",
  "time_api.sync_token",
  "time_api.note_ai_enabled",
];

/** Time tracking switched on against the fake: the OAuth app, the sync credentials, task 501 by default. */
export async function enableTimeTracking(api: TestApi, harvest: FakeHarvest, extra: Record<string, unknown> = {}): Promise<void> {
  await api.ctx.options.set({
    "time_api.enabled": true,
    "time_api.client_id": harvest.clientId,
    "time_api.client_secret": harvest.clientSecret,
    "time_api.redirect_uri": `${api.url}/scp/ajax.php/timetracking/callback`,
    "time_api.sync_user_agent": "Agency Desk (ops@agency.example)",
    "time_api.default_task_id": 501,
    "time_api.sync_account_id": harvest.accountId,
    "time_api.sync_token": harvest.personalToken(),
    ...extra,
  });
}

export async function staffMember(api: TestApi): Promise<{ staffId: number; authorization: string }> {
  const staffId = newTicketId();
  const user = await createUser(api.ctx, { login: uniqueLogin("timer"), capabilities: ["staff"], staffId });
  return { staffId, authorization: basicAuth(user.login, user.application_password) };
}

export async function ajax(api: TestApi, method: string, path: string, authorization: string, body?: unknown) {
  const res = await fetch(`${api.url}/scp/ajax.php/timetracking/${path}`, {
    method,
    headers: { authorization, ...(body !== undefined && { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as { success: boolean; data: Record<string, unknown> | string } };
}

/** A connect link as the browser that asks for it gets it: the authorization URL, its state, and the cookie the callback wants back. */
export async function connectLink(api: TestApi, authorization: string): Promise<{ url: URL; state: string; cookie: string; setCookie: string }> {
  const res = await fetch(`${api.url}/scp/ajax.php/timetracking/connect-url`, { headers: { authorization } });
  const body = (await res.json()) as { data: { url: string } };
  const url = new URL(body.data.url);
  const setCookie = res.headers.get("set-cookie") ?? "";
  return { url, state: url.searchParams.get("state")!, cookie: setCookie.split(";")[0]!, setCookie };
}

/** Harvest's redirect back to the callback, as the browser follows it (with `cookie`, when it holds one). */
export function callback(api: TestApi, query: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${api.url}/scp/ajax.php/timetracking/callback?${new URLSearchParams(query).toString()}`, { headers });
}

/** What the browser does: ask for the link, open it at Harvest, allow, and follow the redirect back with a code. */
export async function connectStaff(api: TestApi, harvest: FakeHarvest, authorization: string): Promise<Response> {
  const { url, state, cookie } = await connectLink(api, authorization);
  expect(new URL(url.searchParams.get("redirect_uri")!).pathname).toBe("/scp/ajax.php/timetracking/callback");
  return callback(api, { code: harvest.issueCode(), state, scope: `harvest:${harvest.accountId}` }, { cookie });
}
