import { describe, expect, it } from "vitest";
import { queueKeyPrefix } from "./queues.ts";

describe("queueKeyPrefix", () => {
  it("keeps the plain prefix on one node, so an upgraded deployment finds its queued, delayed and scheduled jobs", () => {
    expect(queueKeyPrefix("mw", "disputes", false)).toBe("mw");
  });

  it("gives each queue its own hash tag on a cluster", () => {
    expect(queueKeyPrefix("mw", "disputes", true)).toBe("{mw:disputes}");
    expect(queueKeyPrefix("mw", "orders", true)).toBe("{mw:orders}");
  });

  it("takes a prefix that holds a hash tag of its own as it is (every queue in that one slot)", () => {
    expect(queueKeyPrefix("{mw}", "disputes", true)).toBe("{mw}");
    expect(queueKeyPrefix("a{b}c", "disputes", true)).toBe("a{b}c");
    // Empty braces make no tag: Redis would hash the whole key.
    expect(queueKeyPrefix("mw{}", "disputes", true)).toBe("{mw{}:disputes}");
  });
});
