import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from "node:fs";

/** Read and write for the owner only: the file holds the key that opens every stored secret. */
const OWNER_ONLY = 0o600;

export interface EnvFileOutcome {
  /** A new ENCRYPTION_KEY was written into the file. */
  wroteKey: boolean;
  /** The file was open to group or others, and is now the owner's only. */
  tightened: boolean;
}

/**
 * `pnpm start` on a new machine: gives it its own ENCRYPTION_KEY, kept in
 * `.env` (never committed), unless the environment or the file has one; and
 * keeps that file 0600, an existing one included (written 0644 before, or by
 * hand). When the chmod fails (another owner) its error stops the start: a
 * key other users can read must not go unnoticed.
 */
export function ensureEncryptionKey(file: string | URL, env: NodeJS.ProcessEnv = process.env): EnvFileOutcome {
  const exists = existsSync(file);
  const tightened = exists && (statSync(file).mode & 0o077) !== 0;
  if (tightened) chmodSync(file, OWNER_ONLY);
  const text = exists ? readFileSync(file, "utf8") : "";
  if (env.ENCRYPTION_KEY || /^ENCRYPTION_KEY=./m.test(text)) return { wroteKey: false, tightened };
  const line = `ENCRYPTION_KEY=${randomBytes(32).toString("hex")}\n`;
  // `mode` applies when the file is created; an existing one was tightened above.
  writeFileSync(file, exists ? `${text.replace(/\n?$/, "\n")}${line}` : line, { mode: OWNER_ONLY });
  return { wroteKey: true, tightened };
}
