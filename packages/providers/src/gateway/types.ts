import { z } from "zod";

/**
 * Wire types of the NMI Query API (`POST /api/query.php`). The answer is XML;
 * every value is kept as the text NMI sent (`cc_exp` 0614 keeps its zero,
 * an `order_id` of digits stays a string). The members the platform reads are
 * checked; the rest passes through into the linkage's `gateway_data`.
 */

/** One `<action>` of a transaction (sale, auth, capture, refund, ...); `date` is UTC `YYYYMMDDhhmmss`. */
export const gatewayAction = z.looseObject({
  amount: z.string(),
  action_type: z.string(),
  date: z.string(),
});

export const gatewayTransaction = z.looseObject({
  transaction_id: z.string().min(1),
  /** The merchant's order id as sent with the sale: our `orders.number`. */
  order_id: z.string().default(""),
  authorization_code: z.string().default(""),
  /** Masked to the first digit and the last four: `4xxxxxxxxxxx1111`. */
  cc_number: z.string().default(""),
  /** The first six digits of the card. */
  cc_bin: z.string().default(""),
  currency: z.string().default(""),
  action: z.array(gatewayAction).default([]),
});

export type GatewayAction = z.output<typeof gatewayAction>;
export type GatewayTransaction = z.output<typeof gatewayTransaction>;

/** The query's time range, sent as `start_date`/`end_date` in UTC. */
export interface QueryWindow {
  start: Date;
  end: Date;
}
