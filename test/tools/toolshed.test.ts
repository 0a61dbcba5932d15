import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { restCall, startApi, userWith, type TestApi } from "../support/api.ts";
import { ROOT, spawnEntry } from "../support/processes.ts";

// Spec 2, 4.3: the toolshed's tools are discovered at start-up, one per subdirectory with an index module.
const BUILT_IN = join(ROOT, "packages/api/src/routes/tools");
const FIXTURES = join(ROOT, "test/tools/fixtures");

interface OpenApi {
  paths: Record<string, Record<string, { requestBody?: { content: Record<string, { example?: unknown }> }; responses: Record<string, { content?: Record<string, { example?: unknown }> }> }>>;
}

async function toolPaths(api: TestApi): Promise<{ doc: OpenApi; paths: string[] }> {
  const doc = (await (await fetch(`${api.url}/openapi.json`)).json()) as OpenApi;
  const paths = Object.entries(doc.paths)
    .filter(([path]) => path.startsWith("/tools/v1/"))
    .flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`))
    .sort();
  return { doc, paths };
}

describe("toolshed discovery", () => {
  let shed: string;
  beforeAll(async () => {
    // The built-in tools plus a third, and what is not a tool: a file and a directory without an index module.
    shed = await mkdtemp(join(tmpdir(), "toolshed-"));
    await symlink(join(BUILT_IN, "storefront_a"), join(shed, "storefront_a"));
    await symlink(join(BUILT_IN, "storefront_b"), join(shed, "storefront_b"));
    await symlink(join(FIXTURES, "extra-tool/greeter"), join(shed, "greeter"));
    await writeFile(join(shed, "README.md"), "notes, not a tool\n");
    await mkdir(join(shed, "helpers"));
    await writeFile(join(shed, "helpers/shared.ts"), "export const notATool = true;\n");
  });
  afterAll(() => rm(shed, { recursive: true, force: true }));

  it("mounts the two built-in storefront tools under /tools/v1 and documents each route with its example", async () => {
    const api = await startApi();
    try {
      const { doc, paths } = await toolPaths(api);
      expect(paths).toEqual([
        "GET /tools/v1/storefront_a/sites/{site_id}/orders/{number}",
        "GET /tools/v1/storefront_a/sites/{site_id}/stock",
        "GET /tools/v1/storefront_b/sites/{site_id}/orders/{number}",
        "GET /tools/v1/storefront_b/sites/{site_id}/stock",
        "POST /tools/v1/storefront_a/sites/{site_id}/orders/{number}/tracking",
        "POST /tools/v1/storefront_b/sites/{site_id}/orders/{number}/tracking",
      ]);
      const lookup = doc.paths["/tools/v1/storefront_b/sites/{site_id}/orders/{number}"]!.get!;
      expect(lookup.responses["200"]!.content!["application/json"]!.example).toMatchObject({ platform: "storefront_b", order: { number: "1045", status: "processing" } });
    } finally {
      await api.close();
    }
  });

  it("mounts a third tool found in TOOLSHED_DIR beside the others: validated, guarded and documented with the example it supplies", async () => {
    const api = await startApi({ TOOLSHED_DIR: shed });
    try {
      const admin = await userWith(api, "manage_middleware");
      const greeted = await restCall(`${api.url}/tools/v1/greeter/greetings`, "POST", { name: "Grace" }, admin);
      expect(greeted.status).toBe(200);
      expect(greeted.body).toEqual({ greeting: "Hello, Grace, from /tools/v1/greeter" });

      const invalid = await restCall(`${api.url}/tools/v1/greeter/greetings`, "POST", {}, admin);
      expect(invalid.status).toBe(400);
      expect(invalid.body).toMatchObject({ code: "rest_missing_callback_param", message: "Missing parameter(s): name" });
      const anonymous = await restCall(`${api.url}/tools/v1/greeter/greetings`, "POST", { name: "Grace" });
      expect(anonymous.status).toBe(403);

      // The built-in tools are still there (no such site, rather than no such route).
      const storefront = await restCall(`${api.url}/tools/v1/storefront_a/sites/2000000000/stock?sku=MUG-1`, "GET", undefined, admin);
      expect(storefront.body).toEqual({ code: "rest_not_found", message: "Site not found.", data: { status: 404 } });

      const { doc, paths } = await toolPaths(api);
      expect(paths.filter((path) => !path.includes("/storefront_"))).toEqual(["POST /tools/v1/greeter/greetings"]);
      expect(paths).toHaveLength(7);
      const greetings = doc.paths["/tools/v1/greeter/greetings"]!.post!;
      expect(greetings.requestBody!.content["application/json"]!.example).toEqual({ name: "Ada" });
      expect(greetings.responses["200"]!.content!["application/json"]!.example).toEqual({ greeting: "Hello, Ada, from /tools/v1/greeter" });
    } finally {
      await api.close();
    }
  });

  it.each([
    ["bad-import", "bad_import", "index.js", " failed to load: the fixture tool cannot load"],
    ["no-register", "no_register", "index.ts", " exports no registerRoutes function"],
    ["register-throws", "throws_on_register", "index.ts", ": registerRoutes failed: OpenAPI: no example for GET /undocumented"],
  ])("does not start with a broken tool (%s), naming it", async (fixture, tool, file, why) => {
    const module = join(FIXTURES, fixture, tool, file);
    await expect(startApi({ TOOLSHED_DIR: join(FIXTURES, fixture) })).rejects.toThrow(`Toolshed: tool "${tool}" (${module})${why}`);
  });

  it("stops the API process at start-up with one line naming the broken tool, exit 78", async () => {
    const api = spawnEntry("packages/api/src/main.ts", [], { TOOLSHED_DIR: join(FIXTURES, "bad-import"), PORT: "0" });
    expect(await api.exited()).toEqual({ code: 78, signal: null });
    const lines = api.output().trim().split("\n").filter((line) => line && !line.startsWith("{"));
    expect(lines).toEqual([`Toolshed: tool "bad_import" (${join(FIXTURES, "bad-import/bad_import/index.js")}) failed to load: the fixture tool cannot load`]);
  });
});
