import { AppError } from "@mw/shared";

/**
 * A refusal concerns one thing only (an order, a stock item): the storefront
 * said no to that request (400, 404, 409, 422), or our own checks found the
 * order cannot be shipped as the ERP says. A sync goes on with the rest.
 * Anything else (credentials refused, rate limit outlasting its bound,
 * storefront or ERP down) would fail everything alike, so it ends the run.
 * A refusal also means nothing was created, unlike a timeout.
 */
const REFUSAL_STATUSES = new Set([400, 404, 409, 422]);

export function isRefusal(error: unknown): error is AppError {
  if (!(error instanceof AppError)) return false;
  return error.code === "order_not_shippable" || REFUSAL_STATUSES.has(error.data.upstream_status as number);
}

export function orderProblem(message: string): AppError {
  return AppError.permanent(message, "order_not_shippable");
}

/** An item the storefront refused inside a batch answer (which itself succeeded). */
export function batchRefusal(message: string): AppError {
  const error = new AppError(502, "upstream_error", message, { upstream_status: 400 });
  error.permanent = true;
  return error;
}
