import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ROOT } from "../support/processes.ts";

// scripts/cli.js (`pnpm cli`) in a checkout of its own whose CLI entry points say which one ran:
// the compiled packages/api/dist/cli/main.js in process, or packages/api/src/cli/main.ts under tsx.
let checkout: string;

const BUILT_MAIN = `export async function main(args) {
  console.log("built " + JSON.stringify(args));
  console.error("built stderr");
  return 3;
}
`;
const SOURCE_MAIN = `console.log("source " + JSON.stringify({ args: process.argv.slice(2), execArgv: process.execArgv }));
console.error("source stderr");
process.exitCode = 5;
`;

function write(path: string, text: string, mtimeSeconds: number): void {
  const file = join(checkout, path);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
  utimesSync(file, mtimeSeconds, mtimeSeconds);
}

/** `pnpm cli ARGS` as package.json runs it, tsx resolved from the repository (the child's working directory). */
function launch(...args: string[]) {
  const run = spawnSync(process.execPath, ["--conditions=dist", "--wasm-tiering-budget=180000000", join(checkout, "scripts/cli.js"), ...args], { cwd: ROOT, encoding: "utf8" });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

const SOURCES_AT = 1_700_000_000;
const BUILT_AT = SOURCES_AT + 60;

beforeEach(() => {
  checkout = mkdtempSync(join(tmpdir(), "mw-cli-launcher-"));
  mkdirSync(join(checkout, "scripts/support"), { recursive: true });
  for (const file of ["scripts/cli.js", "scripts/support/built.js"]) copyFileSync(join(ROOT, file), join(checkout, file));
  for (const pkg of ["platform", "providers", "domains"]) {
    write(`packages/${pkg}/src/lib/part.ts`, "export const part = 1;\n", SOURCES_AT);
    write(`packages/${pkg}/dist/lib/part.js`, "export const part = 1;\n", BUILT_AT);
  }
  write("packages/api/src/cli/main.ts", SOURCE_MAIN, SOURCES_AT);
  write("packages/api/dist/cli/main.js", BUILT_MAIN, BUILT_AT);
  // Tests are not compiled: one changed since the build leaves it current.
  write("packages/domains/src/lib/part.test.ts", "export {};\n", BUILT_AT + 60);
});
afterEach(() => rmSync(checkout, { recursive: true, force: true }));

describe("pnpm cli (scripts/cli.js)", () => {
  it("runs the build when every source was compiled after its last change, passing its output and exit code through", () => {
    expect(launch("options:get", "ai_model")).toEqual({ code: 3, stdout: 'built ["options:get","ai_model"]\n', stderr: "built stderr\n" });
  });

  it("runs the sources under tsx, without the build's condition, when one changed since its build or was never built", () => {
    write("packages/domains/src/lib/part.ts", "export const part = 2;\n", BUILT_AT + 60);
    const changed = launch("options:get", "ai_model");
    expect([changed.code, changed.stderr]).toEqual([5, "source stderr\n"]);
    const { args, execArgv } = JSON.parse(changed.stdout.replace(/^source /, "")) as { args: string[]; execArgv: string[] };
    expect(args).toEqual(["options:get", "ai_model"]);
    expect(execArgv).toContain("--wasm-tiering-budget=180000000");
    expect(execArgv).not.toContain("--conditions=dist");

    write("packages/domains/src/lib/part.ts", "export const part = 1;\n", SOURCES_AT);
    expect(launch("--help").code).toBe(3);
    write("packages/platform/src/lib/new-part.ts", "export const added = 1;\n", SOURCES_AT);
    expect(launch("--help")).toMatchObject({ code: 5, stderr: "source stderr\n" });
  });
});
