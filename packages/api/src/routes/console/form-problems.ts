import { AppError } from "@mw/platform";
import type { z } from "zod";

/** What a refused form says, one line per field: the rules' messages, as the REST answer names them. */
export function zodProblems(error: z.ZodError): string[] {
  return error.issues.map((issue) => `${issue.path.join(".") || "form"}: ${issue.message}`);
}

/**
 * A domain's refusal of a form's content (400, 404, 409) as lines to show
 * beside the form; anything else is not the form's fault and is rethrown.
 */
export function refusalProblems(error: unknown): string[] {
  if (!(error instanceof AppError) || error.status >= 500 || error.status === 403) throw error;
  const params = error.data.params as Record<string, string> | undefined;
  return params ? Object.entries(params).map(([name, message]) => `${name}: ${message}`) : [error.message];
}
