import { z } from "zod";

/** A numeric `:id`; the bound is MariaDB's INT, so a larger id is a 400, not a database error. */
export const idParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

/** The answer of a command that returns nothing else. */
export const outcome = z.object({ success: z.literal(true), message: z.string() });
