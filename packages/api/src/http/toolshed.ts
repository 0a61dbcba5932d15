import { readdir, realpath, stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import type { AppContext } from "../context.ts";
import { ApiRouter } from "./api-router.ts";

/**
 * What a tool's index module exports: it declares its routes on `api` (mounted
 * at `{REST_ROOT}/tools/v1/<tool>`) with `api.route`, each with its own
 * `example`, so they are validated, guarded and documented like every route.
 */
export type RegisterRoutes = (api: ApiRouter, ctx: AppContext) => void | Promise<void>;

/** Where the tools' routes live under REST_ROOT (spec 2, 4.3). */
export const TOOLS_ROOT = "/tools/v1";

/** The built-in tools: `routes/tools/` of this package, in the sources or in the build. */
const BUILT_IN = fileURLToPath(new URL("../routes/tools/", import.meta.url));

/** tsx runs the sources (`index.ts`), `node --conditions=dist` the build (`index.js`): the module of the running kind first. */
const INDEX_NAMES = import.meta.url.endsWith(".ts") ? ["index.ts", "index.js", "index.mjs"] : ["index.js", "index.mjs", "index.ts"];

/** A tool's directory name is the last part of its URL path. */
const TOOL_NAME = /^[a-z0-9][a-z0-9_-]*$/i;

/** A tool that cannot be loaded: the API does not start, and the message names the tool and its module. */
export class ToolshedError extends Error {
  override name = "ToolshedError";
}

export interface Tool {
  name: string;
  /** Where its router is mounted: `{REST_ROOT}/tools/v1/<name>`. */
  mountPath: string;
  router: ApiRouter["router"];
}

/**
 * Spec 2, 4.3: every subdirectory of the toolshed (TOOLSHED_DIR, else the
 * built-in `routes/tools/`) that has an index module is a tool, loaded at
 * start-up in name order. Files and directories without an index module are
 * not tools (shared helpers live there). A tool that fails to import, exports
 * no `registerRoutes`, or whose `registerRoutes` throws stops the start.
 */
export async function loadToolshed(ctx: AppContext, registry: OpenAPIRegistry): Promise<Tool[]> {
  const dir = ctx.config.TOOLSHED_DIR ? resolve(ctx.config.TOOLSHED_DIR) : BUILT_IN;
  const entries = await readdir(dir).catch((error: NodeJS.ErrnoException) => {
    throw new ToolshedError(`Toolshed: cannot read the tools directory ${dir} (TOOLSHED_DIR): ${error.code ?? error.message}`);
  });
  const tools: Tool[] = [];
  for (const name of entries.sort()) {
    const module = await indexModule(join(dir, name));
    if (!module) continue;
    if (!TOOL_NAME.test(name)) throw new ToolshedError(`Toolshed: tool "${name}" (${module}): a tool's directory name is letters, digits, _ and - only (it is part of its URL)`);
    const registerRoutes = await importTool(name, module);
    const mountPath = `${ctx.config.REST_ROOT}${TOOLS_ROOT}/${name}`;
    const api = new ApiRouter(ctx, registry, mountPath);
    try {
      await registerRoutes(api, ctx);
    } catch (error) {
      throw new ToolshedError(`Toolshed: tool "${name}" (${module}): registerRoutes failed: ${(error as Error).message}`, { cause: error });
    }
    tools.push({ name, mountPath, router: api.router });
  }
  ctx.logger.info("toolshed loaded", { dir, tools: tools.map((tool) => tool.name) });
  return tools;
}

/**
 * The directory's index module, or null when `path` is not a directory or has
 * none. Symbolic links are followed to where the module lives, so a tool
 * linked into the toolshed resolves its imports (zod, its own helpers) there.
 */
async function indexModule(path: string): Promise<string | null> {
  const info = await stat(path).catch(() => null);
  if (!info?.isDirectory()) return null;
  for (const name of INDEX_NAMES) {
    const file = join(path, name);
    if (await stat(file).then((found) => found.isFile(), () => false)) return realpath(file);
  }
  return null;
}

async function importTool(name: string, module: string): Promise<RegisterRoutes> {
  let exported: { registerRoutes?: unknown };
  try {
    exported = (await import(pathToFileURL(module).href)) as { registerRoutes?: unknown };
  } catch (error) {
    throw new ToolshedError(`Toolshed: tool "${name}" (${module}) failed to load: ${(error as Error).message}`, { cause: error });
  }
  if (typeof exported.registerRoutes !== "function") throw new ToolshedError(`Toolshed: tool "${name}" (${module}) exports no registerRoutes function`);
  return exported.registerRoutes as RegisterRoutes;
}
