import { readDisputeDetails, type DisputeDetails } from "@mw/domains/disputes";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

// Design section 9, "Acquirer dispute details", as properties of the pure reader; no database.
const RUNS = { numRuns: 150 };

type Json = Record<string, unknown>;

const padding = fc.constantFrom("", " ", "  ");
const padded = (arb: fc.Arbitrary<string>) => fc.tuple(padding, arb, padding).map(([before, text, after]) => before + text + after);
/** Values that do not count as given: absent, null, blank, or not a string or number. */
const blank = fc.constantFrom(undefined, null, "", "   ", true, {}, ["x"]);

const day = fc.date({ min: new Date("1990-01-01T00:00:00Z"), max: new Date("2099-12-31T00:00:00Z"), noInvalidDate: true }).map((date) => date.toISOString().slice(0, 10));
const caseId = fc.stringMatching(/^[A-Z0-9]{1,16}$/);
const mid = fc.stringMatching(/^[1-9][0-9]{0,11}$/);
const authCode = fc.stringMatching(/^[A-Z0-9]{4,8}$/);

/** A dispute record with everything matching needs, and some of what it may carry besides. */
const disputeRecord = fc.record(
  {
    case_id: caseId,
    mid,
    auth_code: authCode,
    transaction_date: day,
    case_number: caseId,
    amount: fc.constantFrom("49.90", "12", "-3.5"),
    card_first6: fc.stringMatching(/^[0-9]{6}$/),
    card_last4: fc.stringMatching(/^[0-9]{4}$/),
    arn: fc.stringMatching(/^[0-9]{10,23}$/),
    reason_code: fc.constantFrom("10.4", "13.1", "4837"),
    reason_desc: fc.string({ maxLength: 40 }),
    dispute_status: fc.constantFrom("open", "won", "lost"),
  },
  { requiredKeys: ["case_id", "mid", "auth_code", "transaction_date"] },
);

/** The acquirer sends its members JSON-encoded; decoded objects are read the same. */
function delivery(members: { request?: Json; response?: Json; top?: Json }, encoded = true): string {
  const send = (record: Json | undefined) => (record === undefined ? undefined : encoded ? JSON.stringify(record) : record);
  return JSON.stringify({ ...members.top, request_payload: send(members.request), api_response: send(members.response) });
}

/** The details, or what the reader threw: a permanent invalid_dispute is what ends the job without retries. */
function read(raw: string): DisputeDetails | { error: string; code: string; permanent: boolean } {
  try {
    return readDisputeDetails(raw);
  } catch (error) {
    const { code, permanent } = error as { code: string; permanent: boolean };
    return { error: (error as Error).message, code, permanent };
  }
}

function withoutRecord(details: ReturnType<typeof read>) {
  if ("error" in details) return details;
  const { record: _record, ...rest } = details;
  return rest;
}

/** Only the keys whose value is not undefined (JSON drops the others anyway). */
function defined(record: Json): Json {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined));
}

function textOf(value: unknown): string | null {
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  if (typeof value === "string" && value.trim() !== "") return value.trim();
  return null;
}

/** The first given value, in the order the reader looks. */
function firstGiven(...values: unknown[]): string | null {
  for (const value of values) {
    const text = textOf(value);
    if (text !== null) return text;
  }
  return null;
}

describe("readDisputeDetails: where values are read from", () => {
  it("reads keys in any letter case", () => {
    const recased = disputeRecord.chain((record) =>
      fc.tuple(...Object.keys(record).map((key) => fc.mixedCase(fc.constant(key)))).map((keys) => ({
        record,
        recased: Object.fromEntries(Object.values(record).map((value, i) => [keys[i]!, value])),
      })),
    );
    fc.assert(
      fc.property(recased, fc.boolean(), fc.boolean(), ({ record, recased: other }, inResponse, encoded) => {
        const members = (r: Json) => (inResponse ? { response: r } : { request: r });
        expect(withoutRecord(read(delivery(members(other), encoded)))).toEqual(withoutRecord(read(delivery(members(record), encoded))));
      }),
      RUNS,
    );
  });

  it("takes, of two spellings of one key in an object, the first, even when it is blank", () => {
    fc.assert(
      fc.property(disputeRecord, fc.oneof(authCode, blank.filter((value) => value !== undefined)), authCode, (record, first, second) => {
        const { auth_code: _auth, ...rest } = record;
        const details = read(delivery({ request: { ...rest, AUTH_CODE: first, auth_code: second } }));
        const expected = textOf(first);
        if (expected === null) expect(details).toMatchObject({ code: "invalid_dispute", error: expect.stringContaining("no authorization code") });
        else expect(details).toMatchObject({ authCode: expected });
      }),
      RUNS,
    );
  });

  it("takes the first given value: request_payload before api_response, the main key before its synonym, account_id last", () => {
    const slot = (value: fc.Arbitrary<string>) => fc.oneof(padded(value), fc.integer({ min: 1, max: 999_999 }), blank);
    const slots = fc.record({
      request: fc.record({ case_id: slot(caseId), case_number: slot(caseId), mid: slot(mid), merchant_id: slot(mid), auth_code: slot(authCode), authorization_code: slot(authCode) }),
      response: fc.record({ case_id: slot(caseId), case_number: slot(caseId), mid: slot(mid), merchant_id: slot(mid), auth_code: slot(authCode), authorization_code: slot(authCode) }),
      accountId: slot(mid),
    });
    fc.assert(
      fc.property(slots, day, ({ request: req, response: res, accountId }, date) => {
        const details = read(delivery({ request: defined({ ...req, transaction_date: date }), response: defined(res), top: defined({ account_id: accountId }) }));
        const expected = {
          caseId: firstGiven(req.case_id, res.case_id) ?? firstGiven(req.case_number, res.case_number),
          mid: firstGiven(req.mid, req.merchant_id, res.mid, res.merchant_id, accountId),
          authCode: firstGiven(req.auth_code, req.authorization_code, res.auth_code, res.authorization_code),
        };
        if (Object.values(expected).includes(null)) expect(details).toMatchObject({ code: "invalid_dispute" });
        else expect(details).toMatchObject(expected);
      }),
      RUNS,
    );
  });

  it("falls back to api_response for what request_payload lacks, and keeps the record it read first", () => {
    const optional = ["arn", "reason_code", "reason_desc", "dispute_status"] as const;
    const value = fc.oneof(fc.stringMatching(/^[A-Za-z0-9 .-]{1,20}$/), blank);
    const split = disputeRecord.chain((record) =>
      fc.record({
        request: fc.subarray(Object.keys(record)).map((keys) => Object.fromEntries(keys.map((key) => [key, record[key as keyof typeof record]]))),
        extraRequest: fc.record(Object.fromEntries(optional.map((key) => [key, value]))),
        extraResponse: fc.record(Object.fromEntries(optional.map((key) => [key, value]))),
        requestSent: fc.constantFrom("object", "absent", "not json"),
      }).map((parts) => ({ record, ...parts })),
    );
    fc.assert(
      fc.property(split, ({ record, request, extraRequest, extraResponse, requestSent }) => {
        const req = defined({ ...extraRequest, ...request });
        const res = defined({ ...extraResponse, ...record });
        const raw = JSON.stringify({ request_payload: requestSent === "object" ? JSON.stringify(req) : requestSent === "absent" ? undefined : "not json", api_response: JSON.stringify(res) });
        const details = read(raw) as DisputeDetails;
        const used = requestSent === "object" ? [req, res] : [res];
        const first = (key: string) => firstGiven(...used.map((source) => source[key]));
        expect(details).toMatchObject({ caseId: first("case_id"), mid: first("mid"), authCode: first("auth_code"), transactionDate: first("transaction_date") });
        for (const key of optional) expect(details[({ arn: "arn", reason_code: "reasonCode", reason_desc: "reasonDesc", dispute_status: "disputeStatus" } as const)[key]]).toBe(first(key));
        expect(details.record).toEqual(requestSent === "object" ? req : res);
      }),
      RUNS,
    );
  });

  it("drops a MID's leading zeros, and a MID of zeros keeps one", () => {
    fc.assert(
      fc.property(disputeRecord, fc.integer({ min: 0, max: 5 }), fc.oneof(mid, fc.constant("")), (record, zeros, core) => {
        const details = read(delivery({ request: { ...record, mid: "0".repeat(zeros) + core } }));
        if (zeros + core.length === 0) expect(details).toMatchObject({ code: "invalid_dispute" });
        else expect(details).toMatchObject({ mid: core || "0" });
      }),
      RUNS,
    );
  });
});

describe("readDisputeDetails: card digits", () => {
  const digits = (n: number) => fc.stringMatching(new RegExp(`^[0-9]{${n}}$`));
  const notDigits = (n: number) => fc.oneof(digits(n - 1), digits(n + 1), fc.constant("x".repeat(n)));
  const separate = fc.constantFrom("", " ", "-");

  it("takes card_first6 and card_last4 when they are 6 and 4 digits, else what a masked card_number shows", () => {
    const masked = fc.record({ head: fc.oneof(digits(6), fc.constantFrom("4xxxxx", "")), stars: fc.integer({ min: 1, max: 8 }), tail: fc.oneof(digits(4), fc.constantFrom("xxxx", "")), sep: separate });
    fc.assert(
      fc.property(disputeRecord, fc.option(fc.oneof(digits(6), notDigits(6))), fc.option(fc.oneof(digits(4), notDigits(4))), fc.option(masked), (record, first6, last4, card) => {
        const { card_first6: _f, card_last4: _l, ...rest } = record;
        // Written in groups of four, as on the card: separators may fall inside the first six digits.
        const cardNumber = card && (card.head + "*".repeat(card.stars) + card.tail).match(/.{1,4}/g)!.join(card.sep);
        const details = read(delivery({ request: defined({ ...rest, card_first6: first6 ?? undefined, card_last4: last4 ?? undefined, card_number: cardNumber ?? undefined }) })) as DisputeDetails;
        const fromMask = (part: string | undefined, n: number) => (part && new RegExp(`^[0-9]{${n}}$`).test(part) ? part : null);
        expect(details.card).toEqual({
          first6: (first6 && /^\d{6}$/.test(first6) ? first6 : null) ?? fromMask(card?.head, 6),
          last4: (last4 && /^\d{4}$/.test(last4) ? last4 : null) ?? fromMask(card?.tail, 4),
        });
      }),
      RUNS,
    );
  });
});

describe("readDisputeDetails: transaction_date", () => {
  const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  const leap = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const two = (n: number) => String(n).padStart(2, "0");

  it("accepts YYYY-MM-DD for a day that exists and names any other in the error", () => {
    fc.assert(
      fc.property(disputeRecord, fc.integer({ min: 1900, max: 2100 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 31 }), (record, year, month, dayOfMonth) => {
        const text = `${year}-${two(month)}-${two(dayOfMonth)}`;
        const exists = dayOfMonth <= (month === 2 && leap(year) ? 29 : DAYS_IN_MONTH[month - 1]!);
        const details = read(delivery({ request: { ...record, transaction_date: text } }));
        if (exists) expect(details).toMatchObject({ transactionDate: text });
        else expect(details).toEqual({ code: "invalid_dispute", permanent: true, error: `Dispute cannot be matched: transaction_date ${JSON.stringify(text)} is not YYYY-MM-DD or ISO-8601` });
      }),
      RUNS,
    );
  });

  it("takes an ISO-8601 datetime as the UTC day of its instant, a datetime without a zone as UTC", () => {
    const written = fc.record({
      at: fc.date({ min: new Date("1990-01-01T00:00:00Z"), max: new Date("2099-12-31T23:59:59Z"), noInvalidDate: true }),
      offsetMinutes: fc.integer({ min: -12 * 60, max: 14 * 60 }),
      zone: fc.constantFrom("none", "Z", "colon", "plain"),
      precision: fc.constantFrom(16, 19, 23),
    });
    fc.assert(
      fc.property(disputeRecord, written, (record, { at, offsetMinutes, zone, precision }) => {
        const offset = zone === "colon" || zone === "plain" ? offsetMinutes : 0;
        const local = new Date(at.getTime() + offset * 60_000).toISOString().slice(0, precision);
        const sign = offset < 0 ? "-" : "+";
        const hhmm = [two(Math.floor(Math.abs(offset) / 60)), two(Math.abs(offset) % 60)];
        const suffix = { none: "", Z: "Z", colon: `${sign}${hhmm.join(":")}`, plain: `${sign}${hhmm.join("")}` }[zone];
        // The written minute is the instant, to the precision written; seconds cut off never change the day.
        expect(read(delivery({ request: { ...record, transaction_date: local + suffix } }))).toMatchObject({ transactionDate: at.toISOString().slice(0, 10) });
      }),
      RUNS,
    );
  });
});

describe("readDisputeDetails: what cannot be matched", () => {
  type Fault = "ok" | "missing" | "too long";
  const fault = fc.constantFrom<Fault>("ok", "missing", "too long");

  it("fails permanently naming every problem, missing values first, then values too long for their columns", () => {
    const faults = fc.record({ case: fault, mid: fault, auth: fault, date: fc.constantFrom("ok", "missing", "unreadable") });
    fc.assert(
      fc.property(disputeRecord, faults, fc.integer({ min: 0, max: 3 }), (record, f, zeros) => {
        const request: Json = { ...record };
        delete request.case_number;
        if (f.case !== "ok") request.case_id = f.case === "missing" ? undefined : "C".repeat(65);
        // Leading zeros are dropped before the length is checked.
        request.mid = f.mid === "missing" ? "   " : "0".repeat(zeros) + (f.mid === "ok" ? "9".repeat(64) : "9".repeat(65));
        if (f.auth !== "ok") request.auth_code = f.auth === "missing" ? null : "A".repeat(33);
        if (f.date !== "ok") request.transaction_date = f.date === "missing" ? undefined : "2026-02-30";

        const problems = [
          f.case === "missing" && "no case_id or case_number",
          f.mid === "missing" && "no merchant id (mid, merchant_id or account_id)",
          f.auth === "missing" && "no authorization code (auth_code or authorization_code)",
          f.date === "missing" && "no transaction_date",
          f.date === "unreadable" && 'transaction_date "2026-02-30" is not YYYY-MM-DD or ISO-8601',
          f.case === "too long" && "case_id is longer than 64 characters",
          f.mid === "too long" && "mid is longer than 64 characters",
          f.auth === "too long" && "auth_code is longer than 32 characters",
        ].filter(Boolean);
        const details = read(delivery({ request: defined(request) }));
        if (problems.length === 0) expect(details).toMatchObject({ mid: "9".repeat(64) });
        else expect(details).toEqual({ code: "invalid_dispute", permanent: true, error: `Dispute cannot be matched: ${problems.join("; ")}` });
      }),
      RUNS,
    );
  });

  it("fails permanently for a body that is not a JSON object", () => {
    fc.assert(
      fc.property(fc.oneof(fc.json().filter((text) => !/^\{/.test(text)), fc.string().filter((text) => !/^\s*\{/.test(text))), (raw) => {
        expect(read(raw)).toEqual({ code: "invalid_dispute", permanent: true, error: "Dispute cannot be matched: the payload is not a JSON object" });
      }),
      RUNS,
    );
  });
});
