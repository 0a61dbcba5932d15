import type { Config } from "../config/config.ts";
import { LocalStorage } from "./local.ts";
import { S3Storage } from "./s3.ts";
import type { ObjectStorage } from "./types.ts";

export * from "./types.ts";
export { LocalStorage } from "./local.ts";
export { S3Storage } from "./s3.ts";

/** S3 when S3_BUCKET is set, else the local directory STORAGE_DIR (design section 9). */
export function createStorage(config: Config): ObjectStorage {
  return config.S3_BUCKET ? new S3Storage({ ...config, S3_BUCKET: config.S3_BUCKET }) : new LocalStorage(config.STORAGE_DIR);
}
