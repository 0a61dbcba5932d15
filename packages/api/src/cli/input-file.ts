import { statSync } from "node:fs";
import path from "node:path";
import { errors } from "@mw/platform/core";

/**
 * The file a `pnpm cli` command was given, resolved from where the user typed
 * the command (pnpm runs scripts from the repository root; INIT_CWD says
 * where). A missing file or a directory is an ordinary mistake: one line
 * naming the path that was tried, not a stack trace.
 */
export function inputFile(file: string): string {
  const resolved = path.resolve(process.env.INIT_CWD ?? process.cwd(), file);
  let stats;
  try {
    stats = statSync(resolved);
  } catch {
    throw errors.invalidInput(`${file}: no such file (looked for ${resolved})`);
  }
  if (!stats.isFile()) throw errors.invalidInput(`${file}: not a file (${resolved})`);
  return resolved;
}
