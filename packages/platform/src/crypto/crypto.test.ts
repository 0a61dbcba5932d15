import { randomBytes } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decryptSecret, encryptSecret, hashPassword, safeEqual, verifyPassword } from "./crypto.ts";

const key = randomBytes(32);

describe("secrets at rest", () => {
  it("round-trips any text", () => {
    fc.assert(
      fc.property(fc.string(), (secret) => {
        expect(decryptSecret(encryptSecret(secret, key), key)).toBe(secret);
      }),
    );
  });

  it("never stores the secret in the clear, and never the same way twice", () => {
    const first = encryptSecret("gateway-security-key", key);
    const second = encryptSecret("gateway-security-key", key);
    expect(first).not.toContain("gateway-security-key");
    expect(Buffer.from(first.split(":")[3]!, "base64").toString()).not.toContain("gateway");
    expect(first).not.toBe(second);
  });

  it("refuses a tampered envelope or the wrong key", () => {
    const stored = encryptSecret("gateway-security-key", key);
    const parts = stored.split(":");
    const body = Buffer.from(parts[3]!, "base64");
    body[0] = body[0]! ^ 1;
    parts[3] = body.toString("base64");
    expect(() => decryptSecret(parts.join(":"), key)).toThrow();
    expect(() => decryptSecret(stored, randomBytes(32))).toThrow();
  });
});

describe("passwords", () => {
  it("verifies the right password only", async () => {
    const stored = await hashPassword("correct horse");
    expect(stored).not.toContain("correct horse");
    expect(await verifyPassword("correct horse", stored)).toBe(true);
    expect(await verifyPassword("correct horsE", stored)).toBe(false);
    expect(await verifyPassword("x", "garbage")).toBe(false);
  });

  it("compares in constant time without failing on length", () => {
    expect(safeEqual("abc", "abc")).toBe(true);
    expect(safeEqual("abc", "abd")).toBe(false);
    expect(safeEqual("abc", "abcd")).toBe(false);
  });
});
