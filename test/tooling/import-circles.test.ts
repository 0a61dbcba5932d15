import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../support/processes.ts";

/**
 * The packages whose files and folders must not import each other in a circle:
 * a circle makes two pieces one (neither can be read, moved or loaded first
 * without the other). Type-only imports count: they tie the folders together all the same.
 */
const PACKAGES = ["packages/platform/src", "packages/api/src"];

const IMPORT = /\b(?:import|export)\s[^;]*?\bfrom\s*["'](\.{1,2}\/[^"']+)["']|\bimport\s*\(\s*["'](\.{1,2}\/[^"']+)["']\s*\)|^import\s*["'](\.{1,2}\/[^"']+)["']/gm;

/** Every .ts file under the package's src, relative to the root, with its text (the generated Prisma client aside). */
function sources(srcDir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of readdirSync(join(ROOT, srcDir), { recursive: true, withFileTypes: true })) {
    const path = relative(ROOT, join(entry.parentPath, entry.name));
    if (entry.isFile() && path.endsWith(".ts") && !path.startsWith(`${srcDir}/generated/`)) files.set(path, readFileSync(join(ROOT, path), "utf8"));
  }
  return files;
}

/** File to the files of the package it imports by a relative path. */
function importGraph(files: Map<string, string>): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const [file, text] of files) {
    const targets = [...text.matchAll(IMPORT)].map((match) => relative(ROOT, resolve(ROOT, dirname(file), match[1] ?? match[2] ?? match[3]!)));
    graph.set(file, targets.filter((target) => files.has(target)));
  }
  return graph;
}

/** The same graph between folders: a file directly in src stands for itself, any other for its folder. */
function folderGraph(srcDir: string, graph: Map<string, string[]>): Map<string, string[]> {
  const node = (file: string) => (dirname(file) === srcDir ? file : `${dirname(file)}/`);
  const folders = new Map<string, Set<string>>();
  for (const [file, targets] of graph) {
    const edges = folders.get(node(file)) ?? new Set<string>();
    for (const target of targets) if (node(target) !== node(file)) edges.add(node(target));
    folders.set(node(file), edges);
  }
  return new Map([...folders].map(([folder, edges]) => [folder, [...edges]]));
}

/** Each circle once, as the nodes in it (the strongly connected components of more than one node, Tarjan's algorithm). */
function circles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    for (const target of graph.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (stack.includes(target)) low.set(node, Math.min(low.get(node)!, index.get(target)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component = stack.splice(stack.indexOf(node));
    if (component.length > 1 || graph.get(node)!.includes(node)) found.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

/** The circles among the package's files and among its folders, with `extra` appended to the named files' text. */
function circlesIn(srcDir: string, extra: Record<string, string> = {}, { folders = true } = {}): string[][] {
  const files = sources(srcDir);
  for (const [file, line] of Object.entries(extra)) {
    expect(files.has(file), file).toBe(true);
    files.set(file, `${files.get(file)}\n${line}\n`);
  }
  const graph = importGraph(files);
  return [...circles(graph), ...(folders ? circles(folderGraph(srcDir, graph)) : [])];
}

describe("import circles", () => {
  it.each(PACKAGES)("none among the files or the folders of %s", (srcDir) => {
    expect(circlesIn(srcDir)).toEqual([]);
  });

  // Between the domains' folders only files count: a domain may use a self-contained part of
  // another (urgency/engine/) whose domain uses it back, but no file may reach itself again.
  it("none among the files of packages/domains/src", () => {
    expect(circlesIn("packages/domains/src", {}, { folders: false })).toEqual([]);
  });

  it("finds a circle between two files, by import, export ... from or import()", () => {
    expect(circlesIn("packages/platform/src", { "packages/platform/src/core/time.ts": 'import { Batcher } from "./batcher.ts";', "packages/platform/src/core/batcher.ts": 'export { withTimeout } from "./time.ts";' })).toContainEqual([
      "packages/platform/src/core/batcher.ts",
      "packages/platform/src/core/time.ts",
    ]);
    expect(circlesIn("packages/platform/src", { "packages/platform/src/core/time.ts": 'export const load = () => import("./batcher.ts");', "packages/platform/src/core/batcher.ts": 'import type { } from "./time.ts";' })).not.toEqual([]);
  });

  it("finds the circles once taken apart if they are put back", () => {
    // The SKU cleanup asked the orders domain for the SKUs pending orders name, while orders checks SKUs against inventory's catalogue.
    expect(circlesIn("packages/domains/src", { "packages/domains/src/inventory/sku-cleanup.ts": 'import { skusOfPendingOrders } from "../orders/index.ts";' }, { folders: false })).not.toEqual([]);
    // config/ held the queue names' list and queues/ the schedules read from config: the names read from queues/ again.
    expect(circlesIn("packages/platform/src", { "packages/platform/src/config/config.ts": 'import type { JobSchedule } from "../queues/jobs.ts";' })).toContainEqual(
      expect.arrayContaining([
        "packages/platform/src/config/",
        "packages/platform/src/queues/",
      ]),
    );
    // http/ wires auth/'s guards into routes: auth/ reading the signed body's hash from http/'s JSON parser again.
    expect(circlesIn("packages/api/src", { "packages/api/src/auth/authenticate.ts": 'import { jsonBody } from "../http/json-body.ts";' })).toContainEqual(
      expect.arrayContaining([
        "packages/api/src/auth/",
        "packages/api/src/http/",
      ]),
    );
    // The Bull Board sends a signed-out browser to identity's login page: identity reading the board's path from the board again.
    expect(circlesIn("packages/api/src", { "packages/api/src/routes/identity/index.ts": 'import { BOARD_PATH as BOARD } from "../queue/board.ts";' })).toContainEqual(
      expect.arrayContaining([
        "packages/api/src/routes/identity/",
        "packages/api/src/routes/queue/",
      ]),
    );
  });
});
