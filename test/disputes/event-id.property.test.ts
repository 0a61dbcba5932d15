import { createHash } from "node:crypto";
import { acquirerEventId } from "@mw/domains/disputes";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

// Spec 1, 4.5 rule 2: the deduplication key of an acquirer delivery, as properties; no database.
const RUNS = { numRuns: 200 };

const padding = fc.constantFrom("", " ", "  ", "\t");
/** A value that counts: a string with something besides spaces (surrounding spaces dropped), or a finite number. */
const given = fc.oneof(
  fc.tuple(padding, fc.string({ minLength: 1, maxLength: 20 }).filter((text) => text.trim() !== ""), padding).map(([before, text, after]) => before + text + after),
  fc.integer({ min: 0, max: 1e9 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);
/** A value that does not count, whichever member it is. */
const blank = fc.constantFrom(undefined, null, "", "   ", Number.NaN, Number.POSITIVE_INFINITY, true, {}, ["x"]);
const eventType = given;

function textOf(value: string | number): string {
  return typeof value === "number" ? String(value) : value.trim();
}

/** api_response arrives JSON-encoded from the acquirer; an already-decoded object means the same. */
function asSent(record: Record<string, unknown>, encoded: boolean): unknown {
  return encoded ? JSON.stringify(record) : record;
}

/** An instant, written as the acquirer might: UTC `Z` or a local time with its offset. */
const timestamp = fc
  .record({
    at: fc.date({ min: new Date("2000-01-01T00:00:00Z"), max: new Date("2099-12-31T23:59:59Z"), noInvalidDate: true }),
    offsetMinutes: fc.integer({ min: -12 * 60, max: 14 * 60 }),
    zulu: fc.boolean(),
  })
  .map(({ at, offsetMinutes, zulu }) => {
    if (zulu) return { text: at.toISOString(), seconds: Math.floor(at.getTime() / 1000) };
    const local = new Date(at.getTime() + offsetMinutes * 60_000).toISOString().slice(0, 23);
    const sign = offsetMinutes < 0 ? "-" : "+";
    const abs = Math.abs(offsetMinutes);
    const zone = `${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
    return { text: `${local}${zone}`, seconds: Math.floor(at.getTime() / 1000) };
  });
const unreadableTimestamp = fc.constantFrom("yesterday", "not a date", "2026-13-45T99:99:99Z", "");

/** Case keys that do not count for the event id: anywhere but api_response. */
const elsewhere = fc.record({ case_id: given, case_number: given }, { requiredKeys: [] });

const md5 = (text: string) => createHash("md5").update(text).digest("hex");

describe("acquirerEventId", () => {
  it("(a) is api_response.case_id when it has one, whatever else the delivery holds", () => {
    fc.assert(
      fc.property(given, fc.option(given), fc.boolean(), timestamp, eventType, (caseId, caseNumber, encoded, time, type) => {
        const payload = { api_response: asSent({ case_id: caseId, case_number: caseNumber }, encoded), timestamp: time.text, event_type: type };
        expect(acquirerEventId(payload)).toBe(`acquirer_case_${textOf(caseId)}`);
      }),
      RUNS,
    );
  });

  it("(b) is api_response.case_number when case_id is absent or blank", () => {
    fc.assert(
      fc.property(blank, given, fc.boolean(), timestamp, eventType, (caseId, caseNumber, encoded, time, type) => {
        const payload = { api_response: asSent({ case_id: caseId, case_number: caseNumber }, encoded), timestamp: time.text, event_type: type };
        expect(acquirerEventId(payload)).toBe(`acquirer_case_${textOf(caseNumber)}`);
      }),
      RUNS,
    );
  });

  it("(c) is the timestamp's unix second and the event type's MD5 when api_response names no case", () => {
    const noCase = fc.oneof(
      fc.record({ case_id: blank, case_number: blank }).map((record) => asSent(record, true)),
      fc.constantFrom(undefined, "not json", "[1,2]", "42", ""),
    );
    fc.assert(
      fc.property(noCase, timestamp, eventType, elsewhere, padding, (response, time, type, stray, pad) => {
        const payload = { api_response: response, timestamp: pad + time.text + pad, event_type: type, request_payload: JSON.stringify(stray), ...stray };
        expect(acquirerEventId(payload)).toBe(`acquirer_${time.seconds}_${md5(textOf(type))}`);
      }),
      RUNS,
    );
  });

  it("(d) is null without a case, a readable timestamp and an event type, so the delivery is never a duplicate", () => {
    const incomplete = fc.oneof(
      fc.record({ timestamp: blank, event_type: eventType }),
      fc.record({ timestamp: unreadableTimestamp, event_type: eventType }),
      fc.record({ timestamp: timestamp.map((time) => time.text), event_type: blank }),
    );
    fc.assert(
      fc.property(incomplete, fc.record({ case_id: blank, case_number: blank }), fc.boolean(), elsewhere, (members, response, encoded, stray) => {
        expect(acquirerEventId({ api_response: asSent(response, encoded), ...members, ...stray })).toBeNull();
      }),
      RUNS,
    );
  });

  it("names the same delivery the same way every time", () => {
    fc.assert(
      fc.property(fc.option(given), fc.option(given), fc.option(timestamp), fc.option(eventType), (caseId, caseNumber, time, type) => {
        const payload = { api_response: JSON.stringify({ case_id: caseId, case_number: caseNumber }), timestamp: time?.text, event_type: type };
        expect(acquirerEventId(payload)).toBe(acquirerEventId(JSON.parse(JSON.stringify(payload)) as Record<string, unknown>));
      }),
      RUNS,
    );
  });
});
