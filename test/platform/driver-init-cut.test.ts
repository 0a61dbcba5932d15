import { createSqlPool } from "@mw/platform";
import { createServer, connect, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabaseUrl } from "../support/env.ts";

// A connection cut after the login, while the driver sets the session up (its
// `SET time_zone`), failed the connect and also rejected a promise nobody held:
// an unhandled rejection, which ends a Node process (mariadb 3.4.5; patched in
// patches/, fixed upstream in 3.5). A network cut at that moment must cost one
// failed connect, not the process.
let proxy: Server;
const sockets = new Set<Socket>();

beforeAll(async () => {
  const target = new URL(testDatabaseUrl());
  proxy = createServer((client) => {
    const upstream = connect(Number(target.port || 3306), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("error", () => socket.destroy());
    }
    client.on("data", (chunk) => {
      if (chunk.includes("time_zone")) {
        client.destroy();
        upstream.destroy();
      } else upstream.write(chunk);
    });
    upstream.pipe(client);
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  proxy.listen(0, "127.0.0.1");
  await new Promise((resolve) => proxy.once("listening", resolve));
});

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => proxy.close(resolve));
});

describe("the driver pool when the network cuts during session set-up", () => {
  it("fails the connect and leaves no unhandled rejection", async () => {
    const unhandled: unknown[] = [];
    const listener = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", listener);
    const url = new URL(testDatabaseUrl());
    url.host = `127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    const pool = createSqlPool(url.toString(), { connectionLimit: 1 });
    try {
      await expect(pool.getConnection()).rejects.toThrow();
      // An unhandled rejection is reported after the microtasks of the turn that made it.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", listener);
      await pool.end();
    }
  });
});
