import { md5Hex } from "@mw/platform/crypto";

/** A member that may arrive as a JSON-encoded string (as the acquirer sends it) or already as an object. */
export function decodeMember(value: unknown): Record<string, unknown> | null {
  if (value && typeof value === "object" && !Array.isArray(value)) return value as Record<string, unknown>;
  if (typeof value !== "string" || value.trim() === "") return null;
  try {
    const parsed: unknown = JSON.parse(value);
    return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function present(value: unknown): string | null {
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  if (typeof value === "string" && value.trim() !== "") return value.trim();
  return null;
}

/**
 * The deduplication key of an acquirer delivery (spec 1, 4.5 rule 2), first
 * that applies: (a) api_response.case_id, (b) api_response.case_number,
 * (c) timestamp + event_type, (d) none (null: the delivery is never a duplicate).
 */
export function acquirerEventId(payload: Record<string, unknown>): string | null {
  const response = decodeMember(payload.api_response);
  const caseId = present(response?.case_id);
  if (caseId) return `acquirer_case_${caseId}`;
  const caseNumber = present(response?.case_number);
  if (caseNumber) return `acquirer_case_${caseNumber}`;
  const timestamp = present(payload.timestamp);
  const eventType = present(payload.event_type);
  if (timestamp && eventType) {
    const ms = Date.parse(timestamp);
    if (!Number.isNaN(ms)) return `acquirer_${Math.floor(ms / 1000)}_${md5Hex(eventType)}`;
  }
  return null;
}
