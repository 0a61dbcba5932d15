import { createHash, randomBytes } from "node:crypto";
import { FakeServer, type FakeAnswer, type FakeReply, type FakeRequest } from "./fake-server.ts";

interface StoredObject {
  body: Buffer;
  contentType: string;
  etag: string;
  lastModified: Date;
  /** Checksum headers the uploader sent (`x-amz-checksum-crc32`, ...), given back on GET when asked for. */
  checksums: Record<string, string>;
}

/**
 * An S3-compatible object store, path-style (`/<bucket>/<key>`), as the AWS
 * SDK's S3Client talks to a custom endpoint: GetObject, HeadObject and
 * PutObject with ETags, Last-Modified, If-None-Match, stored flexible
 * checksums, and S3's XML errors (NoSuchKey, NoSuchBucket, InvalidAccessKeyId,
 * InternalError). Requests must be SigV4-signed with the fake's access key id;
 * the signature itself is not recomputed. `failing` answers every request with
 * 500 InternalError, as a broken or overloaded store does; `cutBodiesAfter`
 * drops the connection part-way through an object.
 */
export class FakeS3 extends FakeServer {
  failing = false;
  /** GETs send the headers and this many bytes, then the connection drops. */
  cutBodiesAfter: number | undefined;
  private readonly buckets = new Map<string, Map<string, StoredObject>>();

  constructor(
    readonly accessKeyId: string,
    buckets: string[],
  ) {
    super();
    for (const bucket of buckets) this.buckets.set(bucket, new Map());
  }

  /** Stores an object directly, as if uploaded by another system. */
  putObject(bucket: string, key: string, body: Buffer, contentType = "image/jpeg"): void {
    this.bucket(bucket).set(key, stored(body, contentType, {}));
  }

  getObject(bucket: string, key: string): StoredObject | undefined {
    return this.bucket(bucket).get(key);
  }

  protected override answer(request: FakeRequest): FakeAnswer {
    const requestId = randomBytes(8).toString("hex").toUpperCase();
    if (this.failing) return s3Error(500, "InternalError", "We encountered an internal error. Please try again.", requestId, request);
    const credential = /^AWS4-HMAC-SHA256 Credential=([^/]+)\//.exec(request.headers.authorization ?? "");
    if (credential?.[1] !== this.accessKeyId) {
      return s3Error(403, "InvalidAccessKeyId", "The AWS Access Key Id you provided does not exist in our records.", requestId, request);
    }
    const [, bucketName = "", ...keyParts] = request.path.split("/");
    const key = keyParts.map((part) => decodeURIComponent(part)).join("/");
    const bucket = this.buckets.get(decodeURIComponent(bucketName));
    if (!bucket) return s3Error(404, "NoSuchBucket", "The specified bucket does not exist.", requestId, request);
    if (!key) return s3Error(405, "MethodNotAllowed", "The specified method is not allowed against this resource.", requestId, request);
    switch (request.method) {
      case "PUT": {
        const checksums = Object.fromEntries(Object.entries(request.headers).filter(([name]) => name.startsWith("x-amz-checksum-") && name !== "x-amz-checksum-mode")) as Record<string, string>;
        const object = stored(request.raw, String(request.headers["content-type"] ?? "binary/octet-stream"), checksums);
        bucket.set(key, object);
        return { status: 200, headers: { etag: object.etag, "x-amz-request-id": requestId, ...checksums } };
      }
      case "GET":
      case "HEAD": {
        const object = bucket.get(key);
        if (!object) {
          return request.method === "HEAD"
            ? { status: 404, headers: { "x-amz-request-id": requestId } }
            : s3Error(404, "NoSuchKey", "The specified key does not exist.", requestId, request, `<Key>${xml(key)}</Key>`);
        }
        const headers: Record<string, string> = {
          "content-type": object.contentType,
          "content-length": String(object.body.length),
          etag: object.etag,
          "last-modified": object.lastModified.toUTCString(),
          "accept-ranges": "bytes",
          "x-amz-request-id": requestId,
          ...(request.headers["x-amz-checksum-mode"] === "ENABLED" ? object.checksums : {}),
        };
        if (request.headers["if-none-match"] === object.etag) return { status: 304, headers: { etag: object.etag, "x-amz-request-id": requestId } };
        if (request.method === "HEAD") return { status: 200, headers };
        return { status: 200, headers, body: object.body, cutAfter: this.cutBodiesAfter };
      }
      default:
        return s3Error(405, "MethodNotAllowed", "The specified method is not allowed against this resource.", requestId, request);
    }
  }

  private bucket(name: string): Map<string, StoredObject> {
    const bucket = this.buckets.get(name);
    if (!bucket) throw new Error(`no bucket ${name}`);
    return bucket;
  }
}

function stored(body: Buffer, contentType: string, checksums: Record<string, string>): StoredObject {
  // S3's ETag of a single-part upload is the MD5 of the bytes, quoted; Last-Modified has whole seconds.
  return { body, contentType, etag: `"${createHash("md5").update(body).digest("hex")}"`, lastModified: new Date(Math.floor(Date.now() / 1000) * 1000), checksums };
}

function xml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function s3Error(status: number, code: string, message: string, requestId: string, request: FakeRequest, extra = ""): FakeReply {
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${xml(message)}</Message>${extra}<Resource>${xml(request.path)}</Resource><RequestId>${requestId}</RequestId></Error>`;
  // HEAD answers carry no body; the SDK then goes by the status alone.
  return { status, headers: { "content-type": "application/xml", "x-amz-request-id": requestId }, body: request.method === "HEAD" ? undefined : body };
}
