import { createServer, type Server } from "node:net";

/**
 * `count` distinct ports that nothing listens on at 127.0.0.1. All are held
 * open until every one is found, so the set has no duplicates; another program
 * may still take one before our server binds it, a race a start-up retries.
 */
export async function freePorts(count: number): Promise<number[]> {
  const servers: Server[] = [];
  try {
    for (let i = 0; i < count; i += 1) {
      const server = createServer().listen(0, "127.0.0.1");
      servers.push(server);
      await new Promise((resolve, reject) => server.once("listening", resolve).once("error", reject));
    }
    return servers.map((server) => (server.address() as { port: number }).port);
  } finally {
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  }
}
