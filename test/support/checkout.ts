import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { testEnv } from "./env.ts";
import { ROOT } from "./processes.ts";

/** The repository's files as a clone of the working tree would have them: no node_modules, .env, .data or logs. */
export function freshCheckout(prefix: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  const files = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: ROOT, encoding: "utf8" }).split("\0").filter(Boolean);
  for (const file of files) {
    if (!existsSync(path.join(ROOT, file))) continue; // deleted in the working tree
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    cpSync(path.join(ROOT, file), path.join(dir, file));
  }
  return dir;
}

/** The environment of a new user's shell: none of the tests' settings. */
export function userEnvironment(overrides: Record<string, string>): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of Object.keys(testEnv())) delete env[name];
  return { ...env, ...overrides };
}
