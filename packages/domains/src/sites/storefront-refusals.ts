import { AppError, errors } from "@mw/platform/core";

const PARTLY_POSTED = "tracking_partly_posted";

/**
 * A refusal concerns one thing only (an order, a stock item): the storefront
 * said no to that request (upstream kind `refused` or `conflict`), or our own
 * checks found the order cannot be shipped as the ERP says. A sync goes on
 * with the rest. Anything else (credentials refused, rate limit outlasting its
 * bound, storefront or ERP down) would fail everything alike, so it ends the
 * run. A refusal also means nothing was created, unlike a timeout, except
 * when it came after part of the work was taken (`partlyPosted`).
 */
export function isRefusal(error: unknown): error is AppError {
  if (!(error instanceof AppError)) return false;
  const kind = error.upstream?.kind;
  return error.code === "order_not_shippable" || error.code === PARTLY_POSTED || kind === "refused" || kind === "conflict";
}

/** A refusal that left nothing on the storefront. */
export function createdNothing(error: unknown): boolean {
  return isRefusal(error) && error.code !== PARTLY_POSTED;
}

export function orderProblem(message: string): AppError {
  return AppError.permanent(message, "order_not_shippable");
}

/** The storefront took part of a tracking number (a shipment to one of the order's addresses) and refused the rest. */
export function partlyPosted(message: string): AppError {
  return AppError.permanent(message, PARTLY_POSTED);
}

/** An item the storefront refused inside a batch answer (which itself succeeded). */
export function batchRefusal(message: string): AppError {
  return errors.upstream(400, message);
}
