import { z } from "zod";
import { isoDay } from "@mw/platform/core";

/*
 * Admin AJAX actions take form fields as well as JSON (spec 2, 4.4: a POST
 * with `action` and `nonce`), so every number, flag and empty field may
 * arrive as a string. These schemas accept both spellings and nothing else.
 */

/** A whole number, or its decimal digits. */
export const formInt = (min = 0, max = 2_147_483_647) =>
  z.union([z.number(), z.string().trim().regex(/^-?\d+$/, "must be a whole number").transform(Number)]).pipe(z.number().int().min(min).max(max));

/** An id (MariaDB INT). */
export const formId = formInt(1);

/** The input of an action on one record: its id. */
export const idInput = z.object({ id: formId });

/** A decimal amount with at most two places. */
export const formMoney = z
  .union([z.number(), z.string().trim().regex(/^\d+(\.\d{1,2})?$/, "must be an amount like 12.50").transform(Number)])
  .pipe(z.number().min(0).max(99_999_999.99).refine((value) => Math.round(value * 100) === Number((value * 100).toFixed(6)), "has more than two decimal places"));

/** true/false, 1/0 (as numbers or text), yes/no, on (a checked checkbox). */
export const formBool = z.union([z.boolean(), z.union([z.literal(0), z.literal(1)]).transform((value) => value === 1), z.enum(["true", "false", "1", "0", "yes", "no", "on"]).transform((value) => ["true", "1", "yes", "on"].includes(value))]);

/** Optional text: an empty field means none (null). */
export const formText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .transform((value) => (value === "" ? null : value))
    .nullable();

/** A field that may be cleared: an empty value (a blank form field or CSV cell) or null means none. */
export function emptyAsNull<S extends z.ZodType>(schema: S) {
  return z.union([z.literal("").transform(() => null), schema]).nullable();
}

/** An optional calendar day: empty means none. */
export const formDay = emptyAsNull(isoDay);
