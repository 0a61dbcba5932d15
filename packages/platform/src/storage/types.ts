import type { Readable } from "node:stream";
import { AppError } from "../core/errors.ts";

/** An object opened for reading: its bytes as a stream, and what HTTP caching needs. */
export interface StoredObject {
  body: Readable;
  /** Bytes, when the back end says (an S3-compatible store may not). */
  size: number | null;
  /** Strong validator of the stored bytes, quoted as HTTP sends it (`"…"`). */
  etag: string;
}

/**
 * Where images and report files live: a local directory by default, or an
 * S3-compatible bucket. Failures are AppErrors: `object_not_found` (404) when
 * the key holds nothing, `storage_unavailable` (503) when the back end failed.
 */
export interface ObjectStorage {
  get(key: string): Promise<StoredObject>;
  /** Writes the whole object; a reader sees the old bytes or the new ones, never a mix. */
  put(key: string, body: Buffer | string, contentType: string): Promise<void>;
  /** Writes the whole object from a file, read as a stream: a report too large to hold in memory. Same guarantee as put. */
  putFile(key: string, file: string, contentType: string): Promise<void>;
  /** Removes the object; a key that holds nothing is already gone (retention runs again after a crash). */
  delete(key: string): Promise<void>;
  close(): void;
}

export const storageErrors = {
  notFound: (key: string) => new AppError(404, "object_not_found", `No object ${key} in storage.`),
  unavailable: (action: "read" | "write" | "delete", key: string, cause: unknown) =>
    new AppError(503, "storage_unavailable", `Storage ${action} of ${key} failed: ${(cause as Error)?.message ?? String(cause)}`, {}, { cause }),
};

export function isObjectNotFound(error: unknown): boolean {
  return error instanceof AppError && error.code === "object_not_found";
}

/**
 * Keys are relative paths of plain segments (`images/2024/SN-1.jpg`): nothing
 * that could climb out of the local directory or mean something else in a URL.
 */
export function isValidKey(key: string): boolean {
  return (
    key.length > 0 &&
    key.length <= 1024 &&
    !key.startsWith("/") &&
    !/[\\\0]/.test(key) &&
    key.split("/").every((segment) => segment !== "" && segment !== "." && segment !== "..")
  );
}
