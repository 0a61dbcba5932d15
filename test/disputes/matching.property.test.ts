import { chooseTransaction, windowAround } from "@mw/domains/disputes";
import type { GatewayTransaction } from "@mw/providers/gateway";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

// Spec 1, 3.2 and section 8, as properties of the pure rules; no database, no gateway.
const RUNS = { numRuns: 200 };

// Few distinct digits, so that generated transactions often share the dispute's card.
const bin = fc.constantFrom("411111", "555555", "378282");
const last4 = fc.constantFrom("1111", "4444", "0005");

const transaction: fc.Arbitrary<GatewayTransaction> = fc
  .record({ id: fc.nat(), cc_bin: bin, last4 })
  .map(({ id, cc_bin, last4 }) => ({ transaction_id: String(id), order_id: "", authorization_code: "AB12CD", cc_number: `${cc_bin[0]}xxxxxxxxxxx${last4}`, cc_bin, currency: "", action: [] }));
const card = fc.record({ first6: fc.option(bin), last4: fc.option(last4) });

/** The dispute's card digits, an unknown part excluding nothing. */
function hasCard(tx: GatewayTransaction, digits: { first6: string | null; last4: string | null }): boolean {
  return (digits.first6 === null || tx.cc_bin === digits.first6) && (digits.last4 === null || tx.cc_number.endsWith(digits.last4));
}

describe("chooseTransaction", () => {
  it("links nothing when the gateway has no transaction with the auth code", () => {
    fc.assert(
      fc.property(card, (digits) => {
        expect(chooseTransaction([], digits)).toEqual({ outcome: "no_gateway_result" });
      }),
      { numRuns: 20 },
    );
  });

  it("links the only transaction with the auth code, whatever its card digits", () => {
    fc.assert(
      fc.property(transaction, card, (tx, digits) => {
        const match = chooseTransaction([tx], digits);
        expect(match.outcome).toBe("linked");
        expect(match.transaction).toBe(tx);
      }),
      RUNS,
    );
  });

  it("narrows several by the card digits: none left is no_match, one is linked_card, several link the first as a fallback", () => {
    fc.assert(
      fc.property(fc.array(transaction, { minLength: 2, maxLength: 8 }), card, (matches, digits) => {
        const byCard = matches.filter((tx) => hasCard(tx, digits));
        const match = chooseTransaction(matches, digits);
        if (byCard.length === 0) {
          expect(match).toEqual({ outcome: "no_match" });
        } else {
          expect(match.outcome).toBe(byCard.length === 1 ? "linked_card" : "linked_fallback");
          expect(match.transaction).toBe(byCard[0]);
          expect(match.transaction && match.candidates).toEqual(byCard);
        }
      }),
      RUNS,
    );
  });

  it("only ever links one of the transactions it was given", () => {
    fc.assert(
      fc.property(fc.array(transaction, { maxLength: 8 }), card, (matches, digits) => {
        const match = chooseTransaction(matches, digits);
        if (match.transaction) {
          expect(matches).toContain(match.transaction);
          for (const candidate of match.candidates) expect(matches).toContain(candidate);
        }
      }),
      RUNS,
    );
  });
});

describe("windowAround", () => {
  const day = fc.date({ min: new Date("1971-01-01T00:00:00Z"), max: new Date("2099-12-31T00:00:00Z"), noInvalidDate: true }).map((date) => date.toISOString().slice(0, 10));

  /** Calendar arithmetic, independent of the day length the rule uses. */
  function utcMidnight(dayText: string, plusDays: number): number {
    const date = new Date(`${dayText}T00:00:00Z`);
    date.setUTCDate(date.getUTCDate() + plusDays);
    return date.getTime();
  }

  it("covers whole UTC days, two before the transaction date to two after, ending on the last second", () => {
    fc.assert(
      fc.property(day, (dayText) => {
        const { start, end } = windowAround(dayText);
        expect(start.getTime()).toBe(utcMidnight(dayText, -2));
        expect(end.getTime()).toBe(utcMidnight(dayText, 3) - 1000);
        expect(end.toISOString().slice(11)).toBe("23:59:59.000Z");
      }),
      RUNS,
    );
  });

  it("holds every instant of the five days and none of the days around them", () => {
    fc.assert(
      fc.property(day, fc.integer({ min: -3, max: 3 }), fc.integer({ min: 0, max: 86_399 }), (dayText, offset, second) => {
        const instant = utcMidnight(dayText, offset) + second * 1000;
        const { start, end } = windowAround(dayText);
        const inside = instant >= start.getTime() && instant <= end.getTime();
        expect(inside).toBe(Math.abs(offset) <= 2);
      }),
      RUNS,
    );
  });
});
