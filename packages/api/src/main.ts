import type { AddressInfo } from "node:net";
import { openConnections, getConfigOrExit, onShutdown, servicesOrExit, trustProxyDeprecation } from "@mw/platform";
import { createServer } from "./app.ts";
import { createAppContext } from "./context.ts";
import { ToolshedError } from "./http/toolshed.ts";

const config = getConfigOrExit("api");
await servicesOrExit(config, { database: true });
const ctx = createAppContext(openConnections(config, "api"));
const deprecation = trustProxyDeprecation(process.env);
if (deprecation) ctx.logger.warn(deprecation);
const server = (
  await createServer(ctx).catch((error: unknown) => {
    // A broken tool is the deployment's to fix: one line naming it, as for a bad variable.
    if (!(error instanceof ToolshedError)) throw error;
    console.error(error.message);
    process.exit(78);
  })
).listen(config.PORT, config.HOST, () => {
  const { port } = server.address() as AddressInfo;
  ctx.logger.info("api listening", { port, api_root: config.API_ROOT });
  process.send?.("ready"); // scripts/start.ts prints its banner once every process says so
});
server.on("error", (error: NodeJS.ErrnoException) => {
  // The port being taken or not allowed is a setting to change, not a crash: one line naming it.
  if (error.code === "EADDRINUSE" || error.code === "EACCES" || error.code === "EADDRNOTAVAIL") {
    const why = { EADDRINUSE: "is already in use", EACCES: "needs privileges this process lacks", EADDRNOTAVAIL: "is not an address of this machine" }[error.code];
    console.error(`Cannot listen on ${config.HOST}:${config.PORT}: it ${why}. Set PORT (or HOST) to a free one.`);
    process.exit(78); // EX_CONFIG, as for an invalid variable
  }
  ctx.logger.error("api server failed", { error });
  process.exit(1);
});

onShutdown(ctx.logger, config.SHUTDOWN_TIMEOUT_MS, async () => {
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });
  await ctx.close();
});
