import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../support/processes.ts";

// pnpm 10 ends an install with a box asking to approve every dependency install script the
// workspace does not decide on: each one is named in pnpm-workspace.yaml, to run or not.
const LIFECYCLE = ["preinstall", "install", "postinstall"];

/** The entries of a top-level list in pnpm-workspace.yaml (`key:` followed by `  - item` lines). */
function listSetting(workspace: string, key: string): string[] {
  const block = new RegExp(`^${key}:\\s*(\\[\\])?\\n((?:[ \\t]+-.*\\n)*)`, "m").exec(workspace);
  return (block?.[2] ?? "").split("\n").map((line) => line.replace(/^\s*-\s*/, "").replace(/^["']|["']$/g, "").trim()).filter(Boolean);
}

/** The installed packages that have an install script pnpm would run or ask about. */
function packagesWithInstallScripts(): string[] {
  const store = join(ROOT, "node_modules/.pnpm");
  const names = new Set<string>();
  for (const entry of readdirSync(store)) {
    if (entry.startsWith(".") || !entry.includes("@", 1)) continue;
    const name = entry.slice(0, entry.indexOf("@", 1)).replace("+", "/");
    const dir = join(store, entry, "node_modules", name);
    const manifestFile = join(dir, "package.json");
    if (!existsSync(manifestFile)) continue;
    const scripts = (JSON.parse(readFileSync(manifestFile, "utf8")) as { scripts?: Record<string, string> }).scripts ?? {};
    if (LIFECYCLE.some((script) => scripts[script]) || existsSync(join(dir, "binding.gyp"))) names.add(name);
  }
  return [...names].sort();
}

describe("dependency install scripts", () => {
  it("are each either allowed or ignored in pnpm-workspace.yaml, so `pnpm install` asks nothing", () => {
    const workspace = readFileSync(join(ROOT, "pnpm-workspace.yaml"), "utf8");
    const decided = new Set([...listSetting(workspace, "onlyBuiltDependencies"), ...listSetting(workspace, "ignoredBuiltDependencies")]);
    const found = packagesWithInstallScripts();
    expect(found.length).toBeGreaterThan(0);
    expect(found.filter((name) => !decided.has(name))).toEqual([]);
  });
});
