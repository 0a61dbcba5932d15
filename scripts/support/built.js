// Whether a package's build is current: plain JavaScript, so `pnpm cli` (scripts/cli.js) reads it
// before anything could load tsx, and the tests ask it before running an entry point compiled.
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";

/**
 * The compiled sources (not tests) under `dir`, relative to it. Walked by hand: Node 20's
 * `readdirSync({ recursive: true })` stats every entry and works out its relative path, half this check's CPU.
 */
function* sources(dir, relative = "") {
  for (const entry of readdirSync(join(dir, relative), { withFileTypes: true })) {
    const file = relative ? `${relative}/${entry.name}` : entry.name;
    if (entry.isDirectory()) yield* sources(dir, file);
    else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts")) yield file;
  }
}

/** Whether each compiled source of packages/`pkg` under `root` has its .js in dist/, written after the source's last change. */
function builtSinceChanged(root, pkg) {
  const src = join(root, "packages", pkg, "src");
  for (const file of sources(src)) {
    const built = statSync(join(root, "packages", pkg, "dist", file.replace(/\.ts$/, ".js")), { throwIfNoEntry: false });
    if (!built || built.mtimeMs < statSync(join(src, file)).mtimeMs) return false;
  }
  return true;
}

/** Whether an entry point of packages/`pkg` may run compiled: its package and the ones every entry point loads are built since they changed. */
export function entryBuilt(root, pkg) {
  return ["platform", "providers", "domains", pkg].every((name) => builtSinceChanged(root, name));
}
