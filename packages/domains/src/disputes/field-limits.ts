import { errors } from "@mw/platform/core";
import { decodeMember } from "./event-id.ts";

/**
 * The longest value of each member an acquirer delivery is stored or keyed
 * by: a case id or number becomes the event id (191 characters) and the
 * dispute's key (64); the event type has a column of 100; the timestamp names
 * a time. Longer values are not the acquirer's: they are refused before the
 * database, naming the member, rather than fail there as a 500.
 */
const LIMITS: [path: string, read: (payload: Record<string, unknown>) => unknown, max: number][] = [
  ["api_response.case_id", (payload) => decodeMember(payload.api_response)?.case_id, 64],
  ["api_response.case_number", (payload) => decodeMember(payload.api_response)?.case_number, 64],
  ["event_type", (payload) => payload.event_type, 100],
  ["timestamp", (payload) => payload.timestamp, 64],
  ["account_id", (payload) => payload.account_id, 64],
];

/** Throws 400 rest_invalid_param naming every member of `payload` that is longer than its column or key allows. */
export function checkAcquirerFieldLengths(payload: Record<string, unknown>): void {
  const problems: Record<string, string> = {};
  for (const [path, read, max] of LIMITS) {
    const value = read(payload);
    const text = typeof value === "string" ? value.trim() : typeof value === "number" ? String(value) : "";
    if (text.length > max) problems[path] = `longer than ${max} characters (${text.length})`;
  }
  if (Object.keys(problems).length) throw errors.invalidParams(problems);
}
