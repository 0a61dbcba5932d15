import { AppError } from "@mw/platform";
import { expect } from "vitest";

/** The AppError `promise` rejects with; the test fails if it resolves or rejects with anything else. */
export async function failure(promise: Promise<unknown>): Promise<AppError> {
  const error: unknown = await promise.then(
    () => new Error("expected the call to fail"),
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}
