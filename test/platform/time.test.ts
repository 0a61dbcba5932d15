import { withTimeout } from "@mw/platform";
import { afterEach, describe, expect, it, vi } from "vitest";

afterEach(() => {
  vi.useRealTimers();
});

describe("withTimeout", () => {
  it("clears its timer once the promise settles (every job add goes through it), and still rejects a promise that never settles", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    expect(await withTimeout(Promise.resolve("added"), 5000)).toBe("added");
    await expect(withTimeout(Promise.reject(new Error("refused")), 5000)).rejects.toThrow("refused");
    expect(vi.getTimerCount()).toBe(0);
    const hung = withTimeout(new Promise(() => {}), 5000);
    const outcome = expect(hung).rejects.toThrow("timed out after 5000 ms");
    await vi.advanceTimersByTimeAsync(5000);
    await outcome;
    expect(vi.getTimerCount()).toBe(0);
  });
});
