import { orderHash, parseSubmission } from "@mw/domains/orders";
import { describe, expect, it } from "vitest";
import { orderBody } from "../support/fixtures.ts";

// Stored orders keep the hash their first submission had; a retry is told from
// a conflicting resubmission by comparing with it, so the hash of the same
// content must never change between releases.
describe("orderHash", () => {
  it("gives the hashes orders were stored with", () => {
    const order = parseSubmission(orderBody("H-1", { date: "2026-11-21T10:00:00Z" }), "FEDEX");
    expect(orderHash(order)).toBe(HASH_H1);
    const coupon = parseSubmission(
      orderBody("H-2", { date: "2026-11-21T10:00:00Z", payment_method: "pay_3", line_items: [{ line_number: 1, sku: "X", quantity: 2, unit_price: 1.5, coupon_code: "C1" }] }),
      "FEDEX",
    );
    expect(orderHash(coupon)).toBe(HASH_H2);
  });
});

// Computed with the hash as first written (a localeCompare sort of every object's keys).
const HASH_H1 = "c205b960b09b3825fbf2cd07f7a0e4050ee187e0ba2090771812088ebdacf043";
const HASH_H2 = "c9019f5156ba7238a3997a2a6c6606cfdf517fe8d52c98d0597b82b254ca4359";
