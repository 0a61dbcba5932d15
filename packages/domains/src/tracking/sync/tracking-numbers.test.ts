import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isValidTrackingNumber, normaliseTrackingNumber } from "./tracking-numbers.ts";

describe("tracking numbers", () => {
  it("accepts real carrier formats, printed with spaces or in lower case", () => {
    for (const raw of ["1Z999AA10123456784", "1z 999 aa1 0123456784", "794612345678", "9400 1118 9922 3344 5566 77", "EC123456789US", "1234567890", "C11111111111111", "SPX-55512345"]) {
      expect(isValidTrackingNumber(normaliseTrackingNumber(raw)), raw).toBe(true);
    }
  });

  it("refuses placeholders, repeated characters and numbers too short or too long", () => {
    for (const raw of ["", "N/A", "NA", "NONE", "PENDING", "TBD", "-", "0", "0000000000", "1111", "12-", "-1234", "1234", "A".repeat(12), "9".repeat(41), "1Z999AA1#0123"]) {
      expect(isValidTrackingNumber(normaliseTrackingNumber(raw)), raw).toBe(false);
    }
  });

  it("never accepts a number without a digit", () => {
    fc.assert(fc.property(fc.stringMatching(/^[A-Z-]{0,45}$/), (raw) => !isValidTrackingNumber(normaliseTrackingNumber(raw))));
  });
});
