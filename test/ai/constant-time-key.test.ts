import * as crypto from "node:crypto";
import { safeEqual } from "@mw/platform";
import { OPTIONS } from "@mw/domains/options";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startApi, type TestApi } from "../support/api.ts";

// The real timingSafeEqual, watched: which buffers the key check hands it is
// what makes a comparison constant-time (see the first test).
vi.mock("node:crypto", async (original) => {
  const real = await original<typeof crypto>();
  return { ...real, timingSafeEqual: vi.fn(real.timingSafeEqual) };
});
const timingSafeEqual = vi.mocked(crypto.timingSafeEqual);

const SHARED_KEY = "constant-time-ai-key-51f0c2d98e7a";
const TICKET = { subject: "Printer offline", body: "The office printer is offline again.", client_name: "ACME", is_vip: false };

/** Wrong keys of every kind: empty, shorter, one character off at either end, longer by one, much longer. */
const WRONG_KEYS = [
  "",
  "c",
  SHARED_KEY.slice(0, -1),
  `${SHARED_KEY.slice(0, -1)}X`,
  `X${SHARED_KEY.slice(1)}`,
  `${SHARED_KEY}x`,
  SHARED_KEY.repeat(40),
];

const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

describe("the ai-security-key check is constant-time (spec 2, 5)", () => {
  /*
   * Why a spy and not a stopwatch for this part: whether a guess's length
   * changes the work is a difference of one skipped 32-byte compare, far
   * below what timing can show on a shared 2-core machine. What can be
   * checked exactly is the mechanism: every comparison, whatever the two
   * lengths and however much matches, reaches timingSafeEqual with two
   * buffers of the same fixed size (digests). A naive `===`, or a length
   * check that returns early, never calls it for keys of another length and
   * fails here.
   */
  it("compares fixed-size digests of both sides, for keys of any length and prefix", () => {
    for (const sent of [SHARED_KEY, ...WRONG_KEYS]) {
      timingSafeEqual.mockClear();
      expect(safeEqual(sent, SHARED_KEY)).toBe(sent === SHARED_KEY);
      expect(timingSafeEqual).toHaveBeenCalledTimes(1);
      const [left, right] = timingSafeEqual.mock.calls[0]! as [Buffer, Buffer];
      expect([left.length, right.length]).toEqual([32, 32]);
    }
  });

  /*
   * The prefix property measured directly. Two guesses of the same (long)
   * length against a 64 KiB secret: one right up to its last character, one
   * wrong from its first. An early-exit comparison (`===` included) does
   * tens of times more work for the first; a constant-time one the same for
   * both. The machine is shared and loaded, so absolute times mean nothing:
   * the two guesses are timed alternately (a load change hits both alike),
   * many times, and only their medians are compared (a preempted sample
   * does not move a median), with a bound of 1.5x that is far from the
   * early-exit ratio yet wide enough for noise.
   */
  it("takes as long for a guess right up to its last character as for one wrong from its first", () => {
    const secret = "k".repeat(64 * 1024);
    const nearlyRight = `${secret.slice(0, -1)}X`;
    const wrongAtOnce = `X${secret.slice(1)}`;
    const times: Record<"nearlyRight" | "wrongAtOnce", number[]> = { nearlyRight: [], wrongAtOnce: [] };
    for (let sample = 0; sample < 401; sample += 1) {
      for (const [name, guess] of [["nearlyRight", nearlyRight], ["wrongAtOnce", wrongAtOnce]] as const) {
        const started = performance.now();
        const equal = safeEqual(guess, secret);
        times[name].push(performance.now() - started);
        expect(equal).toBe(false);
      }
    }
    const ratio = median(times.nearlyRight) / median(times.wrongAtOnce);
    expect(ratio).toBeGreaterThan(1 / 1.5);
    expect(ratio).toBeLessThan(1.5);
  });

  describe("over HTTP", () => {
    let api: TestApi;
    beforeAll(async () => {
      api = await startApi();
      await api.ctx.options.set({ ai_security_key: SHARED_KEY, ai_rate_limit: 100_000 });
    });
    afterAll(async () => {
      await api.ctx.options.set(Object.fromEntries(Object.keys(OPTIONS).map((name) => [name, null])));
      await api.close();
    });

    const score = (key: string) =>
      fetch(`${api.url}/ai/ticket-urgency`, { method: "POST", headers: { "content-type": "application/json", "ai-security-key": key }, body: JSON.stringify(TICKET) });

    it("refuses a wrong key of every length with the same 401 answer, and takes the right one", async () => {
      const answers = [];
      for (const key of WRONG_KEYS) {
        const res = await score(key);
        answers.push({ status: res.status, body: await res.text() });
      }
      expect(answers[0]).toEqual({ status: 401, body: JSON.stringify({ code: "unauthorized", message: "A valid ai-security-key header is required.", data: { status: 401 } }) });
      expect(new Set(answers.map((answer) => JSON.stringify(answer))).size).toBe(1);
      expect((await score(SHARED_KEY)).status).toBe(200);
    });
  });
});
