import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createServer as createApiServer } from "@mw/api/app";
import { createAppContext, type AppContext } from "@mw/api/context";
import { createLogger, openConnections, parseConfig, type Config } from "@mw/platform";
import { createUser, type Capability } from "@mw/domains/identity";
import { expect } from "vitest";

export interface TestApi {
  url: string;
  ctx: AppContext;
  close(): Promise<void>;
}

export function testConfig(overrides: Record<string, string> = {}): Config {
  return parseConfig({ ...process.env, ...overrides });
}

/**
 * The real Express app on an ephemeral port, against this worker's database and Redis prefix.
 * `name` names its Redis connections (`mw-<name>`, `mw-<name>-sub`), for a test that looks for them.
 */
export async function startApi(overrides: Record<string, string> = {}, name = "api-test"): Promise<TestApi> {
  const config = testConfig(overrides);
  const ctx = createAppContext(openConnections(config, name, { logger: createLogger(name, config) }));
  const server: Server = (
    await createApiServer(ctx).catch(async (error: unknown) => {
      await ctx.close();
      throw error;
    })
  ).listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    ctx,
    async close() {
      await new Promise((resolve) => {
        server.close(resolve);
        server.closeAllConnections();
      });
      await ctx.close();
    },
  };
}

export function basicAuth(login: string, password: string): string {
  return `Basic ${Buffer.from(`${login}:${password}`).toString("base64")}`;
}

let counter = 0;
/** A login no other test in this run uses. */
export function uniqueLogin(prefix = "user"): string {
  counter += 1;
  return `${prefix}${process.pid}_${counter}_${Date.now() % 100000}`;
}

/** An HTTP Basic header of a new user holding one capability. */
export async function userWith(api: TestApi, capability: Capability): Promise<string> {
  const user = await createUser(api.ctx, { login: uniqueLogin(capability.replace(/_/g, "")), capabilities: [capability] });
  return basicAuth(user.login, user.application_password);
}

/** A port nothing listens on. */
export async function closedPort(): Promise<number> {
  const server = createServer().listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A REST call as a script makes it: the body sent as JSON, the answer parsed; `authorization` null sends none. */
export async function restCall(url: string, method: string, body?: unknown, authorization: string | null = null) {
  const headers: Record<string, string> = {};
  if (authorization) headers.authorization = authorization;
  if (body !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> & Record<number, unknown> };
}

/** Each route answers 403 `rest_forbidden` without credentials (spec 1, 5) and to `staff`, a user without manage_middleware. */
export async function expectAdminOnly(rootUrl: string, routes: readonly (readonly [string, string])[], staff: string): Promise<void> {
  for (const [method, route] of routes) {
    const anonymous = await restCall(`${rootUrl}${route}`, method);
    expect(anonymous.status, `${method} ${route}`).toBe(403);
    expect(anonymous.body).toEqual({ code: "rest_forbidden", message: "Authentication required.", data: { status: 403 } });
    const forbidden = await restCall(`${rootUrl}${route}`, method, undefined, staff);
    expect(forbidden.status, `${method} ${route}`).toBe(403);
    expect(forbidden.body).toEqual({ code: "rest_forbidden", message: "Sorry, you are not allowed to do that.", data: { status: 403 } });
  }
}
