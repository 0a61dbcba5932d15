import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createApp } from "@mw/api/app";
import { createAppContext, type AppContext } from "@mw/api/context";
import { createLogger, createServices, createUser, parseConfig, type Capability, type Config } from "@mw/shared";

export interface TestApi {
  url: string;
  ctx: AppContext;
  close(): Promise<void>;
}

export function testConfig(overrides: Record<string, string> = {}): Config {
  return parseConfig({ ...process.env, ...overrides });
}

/** The real Express app on an ephemeral port, against this worker's database and Redis prefix. */
export async function startApi(overrides: Record<string, string> = {}): Promise<TestApi> {
  const config = testConfig(overrides);
  const ctx = createAppContext(createServices(config, "api-test", { logger: createLogger("api-test", config) }));
  const server: Server = createApp(ctx).listen(0, "127.0.0.1");
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
  const user = await createUser(api.ctx.prisma, { login: uniqueLogin(capability.replace(/_/g, "")), capabilities: [capability] });
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
