import { AppError, errors } from "@mw/platform/core";
import { MAX_JSON_DEPTH, nestedDeeperThan } from "@mw/platform/text";

/** A webhook body must be a JSON object: blank is 400 `empty_payload`, anything else 400 `invalid_json` (spec 1, 4.5). */
export function parseWebhookPayload(text: string): Record<string, unknown> {
  if (text.trim() === "") throw new AppError(400, "empty_payload", "Empty payload.");
  if (nestedDeeperThan(text)) throw new AppError(400, "invalid_json", `The payload is nested deeper than ${MAX_JSON_DEPTH} levels.`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new AppError(400, "invalid_json", "The payload is not valid JSON.");
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new AppError(400, "invalid_json", "The payload must be a JSON object.");
  }
  return parsed as Record<string, unknown>;
}

export function webhookDbError(cause: unknown): AppError {
  return new AppError(500, "db_error", "The webhook could not be stored: database error.", {}, { cause });
}

export function webhookQueueError(cause: unknown): AppError {
  return errors.queueUnavailable("The webhook was stored but could not be queued", cause);
}
