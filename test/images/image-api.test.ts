import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { issueImageApiKey, revokeImageApiKey } from "@mw/domains/images";
import { type PrismaClient } from "@mw/platform";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeS3 } from "../fakes/s3.ts";
import { fakeJpeg } from "../support/jpeg.ts";
import { startApi, type TestApi } from "../support/api.ts";

// The image API (spec 1, 4.9 and the image error table of section 7) on the
// real app, against both storage back ends: a local directory and an
// S3-compatible fake that the AWS SDK talks to as it would to S3.
const ACCESS_KEY_ID = "AKIAFAKEIMAGES00001";
const SECRET_ACCESS_KEY = "fake/s3/secret/key/for/the/image/tests0";
const BUCKET = "sealing-images";
/** Serial-lookup rows sit above the random range, so the random endpoint sees an empty table until a test fills it. */
const FIRST_ID = 300_001;
const RANDOM_MAX = 240157;

const JPEG = fakeJpeg(24_000, 7);
const RANDOM_JPEG = fakeJpeg(18_000, 9);

let dir: string;
let local: TestApi;
let s3: TestApi;
let fakeS3: FakeS3;
let prisma: PrismaClient;
let key: string;
let revokedKey: string;

interface Answer {
  status: number;
  headers: Headers;
  body: Buffer;
}

async function get(api: TestApi, pathAndQuery: string, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await fetch(`${api.url}${pathAndQuery}`, { headers });
  return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
}

function json(answer: Answer): unknown {
  expect(answer.headers.get("content-type")).toMatch(/^application\/json/);
  return JSON.parse(answer.body.toString());
}

function image(api: TestApi, serial: string | null, apiKey: string | null = key, headers: Record<string, string> = {}) {
  const query = new URLSearchParams();
  if (serial !== null) query.set("serial_number", serial);
  if (apiKey !== null) query.set("api_key", apiKey);
  return get(api, `/api/image?${query}`, headers);
}

function random(api: TestApi, apiKey: string | null = key) {
  return get(api, `/api/image-random${apiKey === null ? "" : `?api_key=${encodeURIComponent(apiKey)}`}`);
}

async function expectError(answer: Promise<Answer>, status: number, error: string): Promise<void> {
  const settled = await answer;
  expect({ status: settled.status, body: json(settled) }).toEqual({ status, body: { error } });
}

let nextId = FIRST_ID;
async function serial(serialNumber: string, imageKey: string, sealed = new Date("2024-03-05T14:07:09Z")): Promise<void> {
  await prisma.serialNumber.create({ data: { id: nextId++, serial_number: serialNumber, date_of_sealing: sealed, image_key: imageKey } });
}

async function storeLocal(key: string, bytes: Buffer): Promise<void> {
  const file = path.join(dir, key);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, bytes);
}

/** Every id of the random range, all pointing at one image: any draw hits. */
async function fillRandomRange(imageKey: string): Promise<void> {
  await prisma.$executeRawUnsafe(
    `INSERT INTO serial_numbers (id, serial_number, date_of_sealing, image_key) SELECT seq, CONCAT('RND-', seq), '2024-01-01 00:00:00', ? FROM seq_1_to_${RANDOM_MAX}`,
    imageKey,
  );
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "mw-images-"));
  fakeS3 = await new FakeS3(ACCESS_KEY_ID, [BUCKET]).start();
  local = await startApi({ STORAGE_DIR: dir });
  s3 = await startApi({
    S3_ENDPOINT: fakeS3.url,
    S3_BUCKET: BUCKET,
    S3_REGION: "eu-central-1",
    S3_ACCESS_KEY_ID: ACCESS_KEY_ID,
    S3_SECRET_ACCESS_KEY: SECRET_ACCESS_KEY,
    HTTP_TIMEOUT_MS: "2000",
  });
  prisma = local.ctx.prisma;
  await prisma.serialNumber.deleteMany();
  ({ key } = await issueImageApiKey({ prisma }, "image tests"));
  const revoked = await issueImageApiKey({ prisma }, "revoked");
  revokedKey = revoked.key;
  await revokeImageApiKey({ prisma }, revoked.id);

  await storeLocal("images/SN-LOCAL-1.jpg", JPEG);
  fakeS3.putObject(BUCKET, "images/SN-S3-1.jpg", JPEG);
  await serial("SN-LOCAL-1", "images/SN-LOCAL-1.jpg");
  await serial("SN-S3-1", "images/SN-S3-1.jpg");
  await serial("SN-NO-FILE", "images/never-uploaded.jpg");
  // A symlink loop cannot be opened (ELOOP): the local store's stand-in for a failing disk.
  await mkdir(path.join(dir, "broken"), { recursive: true });
  await symlink("loop.jpg", path.join(dir, "broken", "loop.jpg"));
  await serial("SN-BROKEN", "broken/loop.jpg");
});

afterAll(async () => {
  await prisma.serialNumber.deleteMany();
  await s3.close();
  await local.close();
  await fakeS3.stop();
  await rm(dir, { recursive: true, force: true });
});

describe("GET /api/image, the error table", () => {
  it("400 Serial number is required: serial_number missing or blank", async () => {
    await expectError(image(local, null), 400, "Serial number is required");
    await expectError(image(local, "  "), 400, "Serial number is required");
  });

  it("401 for a missing, unknown or revoked key, checked before anything else", async () => {
    await expectError(image(local, "SN-LOCAL-1", null), 401, "401 Unauthorized. Access Not Allowed");
    await expectError(image(local, "SN-LOCAL-1", `${key.slice(0, -1)}x`), 401, "401 Unauthorized. Access Not Allowed");
    await expectError(image(local, "SN-LOCAL-1", "not-a-key"), 401, "401 Unauthorized. Access Not Allowed");
    await expectError(image(local, "SN-LOCAL-1", revokedKey), 401, "401 Unauthorized. Access Not Allowed");
    // No key and no serial number: the key is what the caller hears about.
    const anonymous = await image(local, null, null);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("www-authenticate")).toBeNull();
  });

  it("404 Serial number not found", async () => {
    await expectError(image(local, "SN-UNKNOWN"), 404, "Serial number not found");
    await expectError(image(local, "S".repeat(300)), 404, "Serial number not found");
  });

  it("404 Serial Number Image File not found, on both back ends", async () => {
    await expectError(image(local, "SN-NO-FILE"), 404, "Serial Number Image File not found");
    await expectError(image(s3, "SN-NO-FILE"), 404, "Serial Number Image File not found");
    expect(fakeS3.requests.at(-1)).toMatchObject({ method: "GET", path: `/${BUCKET}/images/never-uploaded.jpg`, status: 404 });
  });

  it("404 Could not Retrieve the image. Please retry again, when storage fails", async () => {
    await expectError(image(local, "SN-BROKEN"), 404, "Could not Retrieve the image. Please retry again");
    fakeS3.failing = true;
    try {
      await expectError(image(s3, "SN-S3-1"), 404, "Could not Retrieve the image. Please retry again");
    } finally {
      fakeS3.failing = false;
    }
  });
});

describe("GET /api/image, found", () => {
  it("answers the base64 JPEG and the sealing date from local storage", async () => {
    const answer = await image(local, "SN-LOCAL-1");
    expect(answer.status).toBe(200);
    const body = json(answer) as { image: string; date_of_sealing: string };
    expect(Object.keys(body).sort()).toEqual(["date_of_sealing", "image"]);
    expect(Buffer.from(body.image, "base64").equals(JPEG)).toBe(true);
    expect(body.date_of_sealing).toBe("2024-03-05 14:07:09");
  });

  it("reads the same through S3: a signed path-style GetObject with our user agent", async () => {
    const answer = await image(s3, "SN-S3-1");
    expect(answer.status).toBe(200);
    const body = json(answer) as { image: string; date_of_sealing: string };
    expect(Buffer.from(body.image, "base64").equals(JPEG)).toBe(true);
    expect(body.date_of_sealing).toBe("2024-03-05 14:07:09");
    const request = fakeS3.requests.at(-1)!;
    expect(request).toMatchObject({ method: "GET", path: `/${BUCKET}/images/SN-S3-1.jpg`, status: 200 });
    expect(request.headers.authorization).toMatch(new RegExp(`^AWS4-HMAC-SHA256 Credential=${ACCESS_KEY_ID}/\\d{8}/eu-central-1/s3/aws4_request`));
    expect(request.headers["user-agent"]).toMatch(/^Middleware\/\d+\.\d+\.\d+$/);
  });

  it("is privately cacheable for a short while, with an ETag that answers 304", async () => {
    for (const api of [local, s3]) {
      const first = await image(api, api === local ? "SN-LOCAL-1" : "SN-S3-1");
      expect(first.headers.get("cache-control")).toBe("private, max-age=300");
      const etag = first.headers.get("etag")!;
      expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
      // As a browser revalidates (fetch would otherwise add Cache-Control: no-cache, which asks for a full answer).
      const again = await image(api, api === local ? "SN-LOCAL-1" : "SN-S3-1", key, { "if-none-match": etag, "cache-control": "max-age=0" });
      expect(again.status).toBe(304);
      expect(again.body.length).toBe(0);
      const other = await image(api, api === local ? "SN-LOCAL-1" : "SN-S3-1", key, { "if-none-match": '"something-else"', "cache-control": "max-age=0" });
      expect(other.status).toBe(200);
    }
  });

  it("changes the ETag when the sealing date changes", async () => {
    const before = (await image(local, "SN-LOCAL-1")).headers.get("etag");
    await prisma.serialNumber.update({ where: { serial_number: "SN-LOCAL-1" }, data: { date_of_sealing: new Date("2024-03-06T00:00:00Z") } });
    try {
      expect((await image(local, "SN-LOCAL-1")).headers.get("etag")).not.toBe(before);
    } finally {
      await prisma.serialNumber.update({ where: { serial_number: "SN-LOCAL-1" }, data: { date_of_sealing: new Date("2024-03-05T14:07:09Z") } });
    }
  });
});

describe("GET /api/image-random", () => {
  it("401 for a missing, unknown or revoked key", async () => {
    await expectError(random(local, null), 401, "401 Unauthorized. Access Not Allowed");
    await expectError(random(local, "mwi_wrong"), 401, "401 Unauthorized. Access Not Allowed");
    await expectError(random(local, revokedKey), 401, "401 Unauthorized. Access Not Allowed");
  });

  it("404 Serial number not found when the drawn id has no row (ids outside the range are never drawn)", async () => {
    // The table holds rows, but all above 240157.
    expect(await prisma.serialNumber.count()).toBeGreaterThan(0);
    for (let i = 0; i < 5; i += 1) await expectError(random(local), 404, "Serial number not found");
  });

  describe("with every id of the range filled", () => {
    beforeAll(async () => {
      await fillRandomRange("random/one.jpg");
      await storeLocal("random/one.jpg", RANDOM_JPEG);
      fakeS3.putObject(BUCKET, "random/one.jpg", RANDOM_JPEG);
    });
    afterAll(async () => {
      await prisma.serialNumber.deleteMany({ where: { id: { lte: RANDOM_MAX } } });
    });

    it("streams the raw JPEG, not cacheable, from either back end", async () => {
      for (const api of [local, s3]) {
        const answer = await random(api);
        expect(answer.status).toBe(200);
        expect(answer.headers.get("content-type")).toBe("image/jpeg");
        expect(answer.headers.get("content-length")).toBe(String(RANDOM_JPEG.length));
        expect(answer.headers.get("cache-control")).toBe("no-store");
        expect(answer.headers.get("etag")).toBeNull();
        expect(answer.body.equals(RANDOM_JPEG)).toBe(true);
      }
      const drawn = fakeS3.requests.at(-1)!;
      expect(drawn).toMatchObject({ method: "GET", path: `/${BUCKET}/random/one.jpg` });
    });

    it("cuts the connection when storage fails mid-image, and serves the next request", async () => {
      fakeS3.cutBodiesAfter = 5000;
      try {
        const res = await fetch(`${s3.url}/api/image-random?api_key=${encodeURIComponent(key)}`);
        expect(res.status).toBe(200);
        expect(res.headers.get("content-length")).toBe(String(RANDOM_JPEG.length));
        // The client cannot mistake the short body for the image: the read fails.
        await expect(res.arrayBuffer()).rejects.toThrow();
      } finally {
        fakeS3.cutBodiesAfter = undefined;
      }
      expect((await random(s3)).body.equals(RANDOM_JPEG)).toBe(true);
    });

    it("404 Serial Number Image File not found and Could not Retrieve the image", async () => {
      await rm(path.join(dir, "random", "one.jpg"));
      await expectError(random(local), 404, "Serial Number Image File not found");
      fakeS3.failing = true;
      try {
        await expectError(random(s3), 404, "Could not Retrieve the image. Please retry again");
      } finally {
        fakeS3.failing = false;
      }
    });
  });
});
