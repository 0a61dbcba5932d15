import type { z } from "zod";
import { AppError, errors } from "@mw/platform";

/**
 * Turns the first zod issue into the spec's REST error: an absent required
 * field is `rest_missing_callback_param`, anything else `rest_invalid_param`,
 * both naming the field.
 */
export function validationError(error: z.ZodError, input: unknown): AppError {
  const issue = error.issues[0];
  if (!issue) return errors.invalidInput("Invalid parameter(s).");
  const field = issue.path.map(String).join(".") || "body";
  const value = issue.path.reduce<unknown>(
    (node, key) => (node !== null && typeof node === "object" ? (node as Record<PropertyKey, unknown>)[key] : undefined),
    input,
  );
  if (issue.code === "invalid_type" && value === undefined) return errors.missingParam(field);
  return errors.invalidParam(field, issue.message);
}

export function parseOrThrow<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  const result = schema.safeParse(input);
  if (!result.success) throw validationError(result.error, input);
  return result.data;
}

/** Spec 2, 7: the management platform's REST routes answer 400 invalid_params naming the field and what is wrong with it. */
export function readSpec2<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const parsed = schema.safeParse(input ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new AppError(400, "invalid_params", `${issue.path.join(".") || "body"}: ${issue.message}`);
  }
  return parsed.data;
}
