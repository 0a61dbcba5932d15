import type { z } from "zod";
import { AppError, errors } from "@mw/platform";

type Issue = z.core.$ZodIssue;

/** What the first problem of a failed parse is: where, what, and whether the field is simply absent. */
export interface Problem {
  field: string;
  message: string;
  /** Every field of `missing` is absent, and filling any one group (alternatives of a union) would do. */
  missing?: string[][];
}

function valueAt(input: unknown, path: PropertyKey[]): unknown {
  return path.reduce<unknown>((node, key) => (node !== null && typeof node === "object" ? (node as Record<PropertyKey, unknown>)[key] : undefined), input);
}

const isAbsent = (issue: Issue, input: unknown, prefix: PropertyKey[]) => issue.code === "invalid_type" && valueAt(input, [...prefix, ...issue.path]) === undefined;

/**
 * The first issue in words, naming the field. zod says only "Invalid input"
 * for a union (a body of alternatives, a number given as a number or digits):
 * when every alternative lacks a field, the answer names what to send; else it
 * is the alternative that came closest (fewest issues, a specific one first).
 */
export function firstProblem(error: z.ZodError, input: unknown, prefix: PropertyKey[] = [], root = "body"): Problem {
  const issue = error.issues[0]!;
  const path = [...prefix, ...issue.path];
  const field = path.map(String).join(".");
  if (issue.code === "invalid_union" && issue.errors.length) {
    const branches = issue.errors.filter((branch) => branch.length > 0);
    if (branches.length && branches.every((branch) => branch.every((inner) => isAbsent(inner, input, path)))) {
      const groups = branches.map((branch) => branch.map((inner) => [...path, ...inner.path].map(String).join(".") || root));
      const missing = [...new Map(groups.map((group) => [group.join(" and "), group])).values()];
      const message = missing.length === 1 ? "is required" : `is required: ${missing.map((group) => group.join(" and ")).join(", or ")}`;
      return { field: field || root, message, missing };
    }
    const rank = (branch: Issue[]) => branch.length * 2 + (branch[0]?.code === "invalid_type" ? 1 : 0);
    const closest = [...branches].sort((a, b) => rank(a) - rank(b))[0];
    if (closest) return firstProblem({ issues: closest } as z.ZodError, input, path, root);
  }
  if (isAbsent(issue, input, prefix)) return { field: field || root, message: "is required", missing: [[field || root]] };
  return { field: field || root, message: issue.message };
}

/**
 * Turns the first zod issue into the spec's REST error: an absent required
 * field is `rest_missing_callback_param` (of a union of bodies, the fields of
 * each alternative), anything else `rest_invalid_param`, both naming the field.
 */
export function validationError(error: z.ZodError, input: unknown): AppError {
  if (!error.issues[0]) return errors.invalidInput("Invalid parameter(s).");
  const problem = firstProblem(error, input);
  if (problem.missing?.length === 1) return errors.missingParams(problem.missing[0]!);
  if (problem.missing) {
    const params = [...new Set(problem.missing.flat())];
    return new AppError(400, "rest_missing_callback_param", `Missing parameter(s): one of ${problem.missing.map((group) => group.join(" and ")).join(", ")}`, { params });
  }
  return errors.invalidParam(problem.field, problem.message);
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
    const problem = firstProblem(parsed.error, input ?? {});
    throw new AppError(400, "invalid_params", `${problem.field}: ${problem.message}`);
  }
  return parsed.data;
}
