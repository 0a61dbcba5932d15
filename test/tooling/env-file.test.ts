import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ensureEncryptionKey } from "../../scripts/support/env-file.ts";

// What `pnpm start` does to .env: the file holds the key to every stored secret.
let dir: string;
let file: string;
const mode = () => statSync(file).mode & 0o777;
const KEY_LINE = /^ENCRYPTION_KEY=[0-9a-f]{64}$/m;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "mw-env-"));
  file = join(dir, ".env");
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("the .env that pnpm start keeps", () => {
  it("is created with a new key, readable by its owner only", () => {
    expect(ensureEncryptionKey(file, {})).toEqual({ wroteKey: true, tightened: false });
    expect(readFileSync(file, "utf8")).toMatch(KEY_LINE);
    expect(mode()).toBe(0o600);
  });

  it("gets the key added to what it holds, and an existing 0644 file becomes 0600", () => {
    writeFileSync(file, "DATABASE_URL=mysql://mw:secret@db/mw");
    chmodSync(file, 0o644);
    expect(ensureEncryptionKey(file, {})).toEqual({ wroteKey: true, tightened: true });
    const lines = readFileSync(file, "utf8").split("\n");
    expect(lines[0]).toBe("DATABASE_URL=mysql://mw:secret@db/mw");
    expect(lines[1]).toMatch(KEY_LINE);
    expect(mode()).toBe(0o600);
  });

  it("keeps a key it already has, and still closes the file to others", () => {
    writeFileSync(file, "ENCRYPTION_KEY=" + "ab".repeat(32) + "\n");
    chmodSync(file, 0o664);
    expect(ensureEncryptionKey(file, {})).toEqual({ wroteKey: false, tightened: true });
    expect(readFileSync(file, "utf8")).toBe("ENCRYPTION_KEY=" + "ab".repeat(32) + "\n");
    expect(mode()).toBe(0o600);
    expect(ensureEncryptionKey(file, {})).toEqual({ wroteKey: false, tightened: false });
  });

  it("writes no key when the environment has one, but tightens the file all the same", () => {
    writeFileSync(file, "LOG_LEVEL=debug\n");
    chmodSync(file, 0o644);
    expect(ensureEncryptionKey(file, { ENCRYPTION_KEY: "cd".repeat(32) })).toEqual({ wroteKey: false, tightened: true });
    expect(readFileSync(file, "utf8")).toBe("LOG_LEVEL=debug\n");
    expect(mode()).toBe(0o600);
  });
});
