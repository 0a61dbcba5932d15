import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { spawnEntry } from "../support/processes.ts";

describe("API start-up", () => {
  it("names the setting to change in one line when its port is taken, and exits 78", async () => {
    const taken = createServer().listen(0, "127.0.0.1");
    await new Promise((resolve) => taken.once("listening", resolve));
    const port = (taken.address() as { port: number }).port;
    try {
      const api = spawnEntry("packages/api/src/main.ts", [], { PORT: String(port), HOST: "127.0.0.1" });
      expect(await api.exited()).toEqual({ code: 78, signal: null });
      const lines = api.output().trim().split("\n").filter((line) => !line.startsWith("{"));
      expect(lines).toEqual([`Cannot listen on 127.0.0.1:${port}: it is already in use. Set PORT (or HOST) to a free one.`]);
      expect(api.output()).not.toMatch(/TypeError|\n\s{4}at /);
    } finally {
      taken.close();
    }
  });
});
