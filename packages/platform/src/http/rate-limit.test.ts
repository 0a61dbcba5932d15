import { describe, expect, it } from "vitest";
import { headerMs, retryAfterMs } from "./rate-limit.ts";

describe("rate-limit waits", () => {
  it("reads Retry-After as seconds or as an HTTP date", () => {
    const now = Date.parse("2026-11-21T10:00:00Z");
    expect(retryAfterMs("3", now)).toBe(3000);
    expect(retryAfterMs("Sat, 21 Nov 2026 10:00:05 GMT", now)).toBe(5000);
    expect(retryAfterMs("Sat, 21 Nov 2026 09:00:00 GMT", now)).toBe(0);
    expect(retryAfterMs("soon", now)).toBeNull();
    expect(retryAfterMs(undefined, now)).toBeNull();
  });

  it("reads a millisecond header such as X-Rate-Limit-Time-Reset-Ms", () => {
    expect(headerMs("1500")).toBe(1500);
    expect(headerMs(["250", "900"])).toBe(250);
    expect(headerMs("1.5")).toBeNull();
    expect(headerMs(undefined)).toBeNull();
  });
});
