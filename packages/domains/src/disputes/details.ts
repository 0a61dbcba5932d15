import { AppError } from "@mw/platform/core";
import { truncateCodePoints } from "@mw/platform/text";
import { decodeMember } from "./event-id.ts";
import { normaliseMid } from "./merchants.ts";

/** What the dispute pipeline reads from an acquirer webhook (design section 9, "Acquirer dispute details"). */
export interface DisputeDetails {
  /** case_id, else case_number: the key of the linkage and the chargeback. */
  caseId: string;
  caseNumber: string | null;
  /** Without leading zeros, as merchant accounts are stored. */
  mid: string;
  authCode: string;
  /** The UTC day of the transaction, `YYYY-MM-DD`. */
  transactionDate: string;
  /** Two decimals, e.g. "49.90"; null when absent or not a number. */
  amount: string | null;
  card: { first6: string | null; last4: string | null };
  arn: string | null;
  reasonCode: string | null;
  reasonDesc: string | null;
  disputeStatus: string | null;
  /** The acquirer's dispute record (decoded request_payload, else api_response), kept with the linkage. */
  record: Record<string, unknown>;
}

/** Longer values do not fit their columns (spec 1, 2.4) and cannot be cut without changing what they identify. */
const KEY_LIMITS = { case_id: 64, mid: 64, auth_code: 32 } as const;
const MAX_AMOUNT = 99_999_999.99;

type Source = Map<string, unknown>;

/** Keys compared case-insensitively; the first spelling of a key in the object wins. */
function keyed(record: Record<string, unknown> | null): Source | null {
  if (!record) return null;
  const map: Source = new Map();
  for (const [key, value] of Object.entries(record)) if (!map.has(key.toLowerCase())) map.set(key.toLowerCase(), value);
  return map;
}

function text(value: unknown): string | null {
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  if (typeof value === "string" && value.trim() !== "") return value.trim();
  return null;
}

/** The first of `keys` present in the first source that has any of them. */
function pick(sources: Source[], ...keys: string[]): string | null {
  for (const source of sources) {
    for (const key of keys) {
      const value = text(source.get(key));
      if (value !== null) return value;
    }
  }
  return null;
}

function clip(value: string | null, max: number): string | null {
  return value === null ? null : truncateCodePoints(value, max);
}

/** `YYYY-MM-DD`, or an ISO-8601 datetime (UTC when it names no zone), as its UTC day; null for anything else or a day that does not exist. */
function utcDay(value: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})(T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.exec(value);
  if (!match) return null;
  const [, year, month, day, time, zone] = match;
  // Date.parse rolls 2026-02-30 over into March.
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  if (date.toISOString().slice(0, 10) !== `${year}-${month}-${day}`) return null;
  if (!time) return date.toISOString().slice(0, 10);
  const instant = Date.parse(`${year}-${month}-${day}${time}${zone ? "" : "Z"}`);
  return Number.isNaN(instant) ? null : new Date(instant).toISOString().slice(0, 10);
}

function amountOf(value: string | null): string | null {
  if (value === null || !/^-?\d+(\.\d+)?$/.test(value)) return null;
  const amount = Number(value);
  return Math.abs(amount) <= MAX_AMOUNT ? amount.toFixed(2) : null;
}

/** card_first6 + card_last4 first; a masked card_number like `411111******1111` fills in what they lack. */
function cardOf(sources: Source[]): DisputeDetails["card"] {
  const first6 = pick(sources, "card_first6");
  const last4 = pick(sources, "card_last4");
  const masked = pick(sources, "card_number")?.replace(/[\s-]/g, "") ?? "";
  return {
    first6: (first6 && /^\d{6}$/.test(first6) ? first6 : null) ?? /^\d{6}/.exec(masked)?.[0] ?? null,
    last4: (last4 && /^\d{4}$/.test(last4) ? last4 : null) ?? /\d{4}$/.exec(masked)?.[0] ?? null,
  };
}

function invalid(problems: string[]): AppError {
  return AppError.permanent(`Dispute cannot be matched: ${problems.join("; ")}`, "invalid_dispute");
}

/**
 * Reads the dispute out of the raw webhook body. A dispute without a case id,
 * merchant id, authorization code or usable transaction date can never be
 * matched, so it fails permanently, naming everything that is missing.
 */
export function readDisputeDetails(rawPayload: string): DisputeDetails {
  let payload: unknown;
  try {
    payload = JSON.parse(rawPayload);
  } catch {
    payload = null;
  }
  if (!payload || typeof payload !== "object" || Array.isArray(payload)) throw invalid(["the payload is not a JSON object"]);
  const top = payload as Record<string, unknown>;
  const request = decodeMember(top.request_payload);
  const response = decodeMember(top.api_response);
  const sources = [keyed(request), keyed(response)].filter((source): source is Source => source !== null);

  const caseNumber = pick(sources, "case_number");
  const caseId = pick(sources, "case_id") ?? caseNumber;
  const rawMid = pick(sources, "mid", "merchant_id") ?? text(keyed(top)?.get("account_id"));
  const mid = rawMid === null ? null : normaliseMid(rawMid);
  const authCode = pick(sources, "auth_code", "authorization_code");
  const rawDate = pick(sources, "transaction_date");
  const transactionDate = rawDate === null ? null : utcDay(rawDate);

  const problems: string[] = [];
  if (caseId === null) problems.push("no case_id or case_number");
  if (mid === null) problems.push("no merchant id (mid, merchant_id or account_id)");
  if (authCode === null) problems.push("no authorization code (auth_code or authorization_code)");
  if (rawDate === null) problems.push("no transaction_date");
  else if (transactionDate === null) problems.push(`transaction_date ${JSON.stringify(rawDate)} is not YYYY-MM-DD or ISO-8601`);
  const keys = { case_id: caseId, mid, auth_code: authCode };
  for (const [name, max] of Object.entries(KEY_LIMITS)) {
    const value = keys[name as keyof typeof keys];
    if (value !== null && value.length > max) problems.push(`${name} is longer than ${max} characters`);
  }
  if (problems.length) throw invalid(problems);

  return {
    caseId: caseId!,
    caseNumber: clip(caseNumber, 64),
    mid: mid!,
    authCode: authCode!,
    transactionDate: transactionDate!,
    amount: amountOf(pick(sources, "amount")),
    card: cardOf(sources),
    arn: clip(pick(sources, "arn"), 128),
    reasonCode: clip(pick(sources, "reason_code"), 32),
    reasonDesc: clip(pick(sources, "reason_desc"), 255),
    disputeStatus: clip(pick(sources, "dispute_status"), 64),
    record: request ?? response ?? {},
  };
}
