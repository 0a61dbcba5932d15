import { randomBytes } from "node:crypto";
import { copyFile, mkdir, open, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { isValidKey, storageErrors, type ObjectStorage, type StoredObject } from "./types.ts";

const MISSING = new Set(["ENOENT", "ENOTDIR", "EISDIR"]);

/** Objects as files under one directory (STORAGE_DIR), the default back end: runs with nothing else installed. */
export class LocalStorage implements ObjectStorage {
  private readonly root: string;

  constructor(dir: string) {
    this.root = path.resolve(dir);
  }

  async get(key: string): Promise<StoredObject> {
    const file = this.fileOf(key);
    let handle;
    try {
      handle = await open(file, "r");
    } catch (error) {
      throw this.failure("read", key, error);
    }
    try {
      const stat = await handle.stat();
      if (!stat.isFile()) throw Object.assign(new Error(`${key} is not a file`), { code: "EISDIR" });
      // Size and modification time identify the bytes well enough for HTTP validators, as static file servers do.
      const etag = `"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`;
      return { body: handle.createReadStream(), size: stat.size, etag };
    } catch (error) {
      await handle.close().catch(() => {});
      throw this.failure("read", key, error);
    }
  }

  async put(key: string, body: Buffer | string, _contentType: string): Promise<void> {
    await this.replace(key, (temporary) => writeFile(temporary, body));
  }

  async putFile(key: string, source: string, _contentType: string): Promise<void> {
    await this.replace(key, (temporary) => copyFile(source, temporary));
  }

  /** Written beside the target and renamed over it: readers never see a half-written file. */
  private async replace(key: string, write: (temporary: string) => Promise<void>): Promise<void> {
    const file = this.fileOf(key);
    const temporary = `${file}.${randomBytes(6).toString("hex")}.tmp`;
    try {
      await mkdir(path.dirname(file), { recursive: true });
      await write(temporary);
      await rename(temporary, file);
    } catch (error) {
      await rm(temporary, { force: true }).catch(() => {});
      throw storageErrors.unavailable("write", key, error);
    }
  }

  async delete(key: string): Promise<void> {
    if (!isValidKey(key)) return;
    await rm(this.fileOf(key), { force: true }).catch((error: unknown) => {
      throw storageErrors.unavailable("delete", key, error);
    });
  }

  close(): void {}

  private fileOf(key: string): string {
    if (!isValidKey(key)) throw storageErrors.notFound(key);
    return path.join(this.root, ...key.split("/"));
  }

  private failure(action: "read" | "write", key: string, error: unknown) {
    return MISSING.has((error as NodeJS.ErrnoException).code ?? "") ? storageErrors.notFound(key) : storageErrors.unavailable(action, key, error);
  }
}
