import type { AddressInfo } from "node:net";
import { openConnections, getConfigOrExit, onShutdown } from "@mw/shared";
import { createServer } from "./app.ts";
import { createAppContext } from "./context.ts";

const config = getConfigOrExit();
const ctx = createAppContext(openConnections(config, "api"));
const server = createServer(ctx).listen(config.PORT, config.HOST, () => {
  const { port } = server.address() as AddressInfo;
  ctx.logger.info("api listening", { port, api_root: config.API_ROOT });
});
server.on("error", (error) => {
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
