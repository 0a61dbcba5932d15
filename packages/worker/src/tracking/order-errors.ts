import { AppError } from "@mw/shared";

/**
 * A failure that concerns one order only: the storefront refused that order's
 * request (400, 404, 409, 422), or its lines cannot be matched. The run goes
 * on with the other orders. Anything else (credentials refused, rate limit
 * exhausted, storefront or ERP down) would fail every order alike, so it ends
 * the run instead.
 */
const ORDER_STATUSES = new Set([400, 404, 409, 422]);

export function orderProblem(message: string): AppError {
  return AppError.permanent(message, "order_not_shippable");
}

export function isOrderLevel(error: unknown): error is AppError {
  if (!(error instanceof AppError)) return false;
  return error.code === "order_not_shippable" || ORDER_STATUSES.has(error.data.upstream_status as number);
}

/** An order the storefront refused inside a batch answer (which itself succeeded). */
export function batchRefusal(message: string): AppError {
  const error = new AppError(502, "upstream_error", message, { upstream_status: 400 });
  error.permanent = true;
  return error;
}
