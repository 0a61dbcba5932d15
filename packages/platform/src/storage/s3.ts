import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import type { Readable } from "node:stream";
import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, S3Client, S3ServiceException } from "@aws-sdk/client-s3";
import type { Config } from "../config/config.ts";
import { USER_AGENT } from "../core/version.ts";
import { isValidKey, storageErrors, type ObjectStorage, type StoredObject } from "./types.ts";

type S3Settings = Pick<Config, "S3_ENDPOINT" | "S3_BUCKET" | "S3_REGION" | "S3_ACCESS_KEY_ID" | "S3_SECRET_ACCESS_KEY" | "HTTP_TIMEOUT_MS">;

/**
 * Objects in an S3-compatible bucket (AWS S3, MinIO, R2, ...). A custom
 * endpoint is addressed path-style (`<endpoint>/<bucket>/<key>`), which every
 * S3-compatible server understands.
 */
export class S3Storage implements ObjectStorage {
  private readonly client: S3Client;
  private readonly bucket: string;

  constructor(settings: S3Settings & { S3_BUCKET: string }) {
    const timeout = settings.HTTP_TIMEOUT_MS;
    this.bucket = settings.S3_BUCKET;
    this.client = new S3Client({
      region: settings.S3_REGION ?? "us-east-1",
      endpoint: settings.S3_ENDPOINT,
      forcePathStyle: Boolean(settings.S3_ENDPOINT),
      // Without keys the SDK's own chain applies (AWS_* variables, instance roles).
      credentials:
        settings.S3_ACCESS_KEY_ID && settings.S3_SECRET_ACCESS_KEY
          ? { accessKeyId: settings.S3_ACCESS_KEY_ID, secretAccessKey: settings.S3_SECRET_ACCESS_KEY }
          : undefined,
      // One retry: a reader waiting on an image is better served by a quick failure than by long backoff.
      maxAttempts: 2,
      // requestTimeout bounds the wait for the answer's headers; socketTimeout a body that stops flowing.
      requestHandler: { connectionTimeout: timeout, requestTimeout: timeout, throwOnRequestTimeout: true, socketTimeout: timeout },
    });
    // Spec 1, 6(e): every outbound request names us. user-agent is not part of the SigV4 signature.
    this.client.middlewareStack.add(
      (next) => (args) => {
        const request = args.request as { headers?: Record<string, string> };
        if (request.headers) request.headers["user-agent"] = USER_AGENT;
        return next(args);
      },
      { step: "finalizeRequest", priority: "high", name: "middlewareUserAgent" },
    );
  }

  async get(key: string): Promise<StoredObject> {
    if (!isValidKey(key)) throw storageErrors.notFound(key);
    try {
      const answer = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      return {
        body: answer.Body as Readable,
        size: answer.ContentLength ?? null,
        etag: answer.ETag ?? `"${key}"`,
      };
    } catch (error) {
      if (error instanceof S3ServiceException && (error.name === "NoSuchKey" || error.$metadata.httpStatusCode === 404)) throw storageErrors.notFound(key);
      throw storageErrors.unavailable("read", key, error);
    }
  }

  async put(key: string, body: Buffer | string, contentType: string): Promise<void> {
    if (!isValidKey(key)) throw storageErrors.notFound(key);
    try {
      await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentType: contentType }));
    } catch (error) {
      throw storageErrors.unavailable("write", key, error);
    }
  }

  async putFile(key: string, file: string, contentType: string): Promise<void> {
    if (!isValidKey(key)) throw storageErrors.notFound(key);
    try {
      // A stream's length is not known to the SDK: without it the upload is refused.
      const { size } = await stat(file);
      await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: createReadStream(file), ContentLength: size, ContentType: contentType }));
    } catch (error) {
      throw storageErrors.unavailable("write", key, error);
    }
  }

  async delete(key: string): Promise<void> {
    if (!isValidKey(key)) return;
    try {
      // S3 answers 204 for a key that holds nothing: deleting twice is no failure.
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
    } catch (error) {
      throw storageErrors.unavailable("delete", key, error);
    }
  }

  close(): void {
    this.client.destroy();
  }
}
