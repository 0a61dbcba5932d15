import { execFileSync } from "node:child_process";
import { join, relative } from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";
import { ROOT } from "../support/processes.ts";

// `pnpm lint` enforces the dependency rule of docs/architecture.md with the project's own ESLint configuration.
const eslint = new ESLint({ cwd: ROOT });

async function boundaryErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  const fatal = result!.messages.filter((message) => message.fatal);
  if (fatal.length > 0) throw new Error(`${filePath}: ${fatal.map((message) => message.message).join("; ")}`);
  return result!.messages.filter((message) => message.ruleId?.startsWith("mw/") || message.ruleId === "no-restricted-imports" || message.ruleId === "no-restricted-syntax").map((message) => message.message);
}

/** How Node resolves each specifier from packages/api (the exports maps): the file relative to the root, or the error code. */
function resolveFromApi(specifiers: string[]): Record<string, string> {
  const script = `
    import { existsSync, realpathSync } from "node:fs";
    import { fileURLToPath } from "node:url";
    const out = {};
    for (const specifier of ${JSON.stringify(specifiers)}) {
      try {
        const file = fileURLToPath(import.meta.resolve(specifier));
        out[specifier] = existsSync(file) ? realpathSync(file) : "ERR_MODULE_NOT_FOUND";
      } catch (error) {
        out[specifier] = error.code;
      }
    }
    out["import()"] = await import("@mw/domains/orders/store.ts").then(() => "loaded", (error) => error.code);
    console.log(JSON.stringify(out));`;
  const output = execFileSync(process.execPath, ["--input-type=module", "-e", script], { cwd: join(ROOT, "packages/api"), encoding: "utf8" });
  const resolved = JSON.parse(output) as Record<string, string>;
  return Object.fromEntries(Object.entries(resolved).map(([specifier, where]) => [specifier, where.startsWith("/") ? relative(ROOT, where) : where]));
}

describe("the dependency rule", () => {
  it("fails lint when platform code imports a domain or a provider, by path or by package, static or import()", async () => {
    const byPath = await boundaryErrors("packages/platform/src/example.ts", 'import { disputeJobId } from "../../domains/src/disputes/index.ts";\nexport const id = disputeJobId;\n');
    const byPackage = await boundaryErrors("packages/platform/src/queues/example.ts", 'import { trackingSyncJob } from "@mw/domains/tracking";\nexport const job = trackingSyncJob;\n');
    const aProvider = await boundaryErrors("packages/platform/src/example.ts", 'export { ErpClient } from "@mw/providers/erp";\n');
    const dynamic = await boundaryErrors("packages/platform/src/queues/deeper/example.ts", 'export const load = () => import("@mw/domains/orders");\n');
    const fromProvider = await boundaryErrors("packages/providers/src/erp/example.ts", 'import { orderExportJob } from "../../../domains/src/orders/index.ts";\nexport const job = orderExportJob;\n');
    const fromProviderByPackage = await boundaryErrors("packages/providers/src/erp/example.ts", 'import type { Site } from "@mw/domains/sites";\nexport type S = Site;\n');
    for (const messages of [byPath, byPackage, aProvider, dynamic, fromProvider, fromProviderByPackage]) expect(messages).toEqual([expect.stringMatching(/never import a domain/)]);
  });

  it("lets platform code import platform code and the generated client, provider clients the platform, and domains both", async () => {
    expect(await boundaryErrors("packages/platform/src/example.ts", 'import { Prisma } from "./generated/prisma/client.ts";\nimport { AppError } from "./errors.ts";\nexport { AppError, Prisma };\n')).toEqual([]);
    expect(await boundaryErrors("packages/platform/src/queues/example.ts", 'import { withTimeout } from "../time.ts";\nexport { withTimeout };\n')).toEqual([]);
    expect(await boundaryErrors("packages/providers/src/erp/example.ts", 'import { createHttpClient } from "@mw/platform";\nimport type { SalesOrder } from "./types.ts";\nexport { createHttpClient, type SalesOrder };\n')).toEqual([]);
    expect(await boundaryErrors("packages/providers/src/erp/example.ts", 'import { createHttpClient } from "@mw/platform/http";\nexport { createHttpClient };\n')).toEqual([]);
    expect(await boundaryErrors("packages/domains/src/disputes/example.ts", 'import { jobId } from "@mw/platform";\nimport type { Platform } from "@mw/platform/prisma";\nimport { GatewayClient } from "@mw/providers/gateway";\nimport { Site } from "../sites/index.ts";\nexport { GatewayClient, jobId, type Platform, type Site };\n')).toEqual([]);
  });

  it("fails lint when a domain reaches into another domain's files, by import, export ... from or import()", async () => {
    const messages = await boundaryErrors(
      "packages/domains/src/reports/example.ts",
      'import { submissionSchema } from "../orders/submission.ts";\nexport { OUTCOMES } from "../disputes/outcomes.ts";\nexport const load = () => import("../orders/store.ts");\nexport const schema = submissionSchema;\n',
    );
    expect(messages).toEqual([
      "Another domain is reached only through its index.ts (docs/architecture.md): ../orders/index.ts, not ../orders/submission.ts.",
      "Another domain is reached only through its index.ts (docs/architecture.md): ../disputes/index.ts, not ../disputes/outcomes.ts.",
      "Another domain is reached only through its index.ts (docs/architecture.md): ../orders/index.ts, not ../orders/store.ts.",
    ]);
    expect(await boundaryErrors("packages/domains/src/inventory/product-webhooks/example.ts", 'export { syncEligible } from "../../sites/sync-eligibility.ts";\n')).toEqual([expect.stringMatching(/only through its index\.ts.*\.\.\/\.\.\/sites\/index\.ts/)]);
    expect(await boundaryErrors("packages/domains/src/orders/example.ts", 'export { createPrisma } from "../../../platform/src/db.ts";\n')).toEqual([expect.stringMatching(/imported by its name/)]);
    expect(await boundaryErrors("packages/domains/src/tracking/example.ts", 'export { findSite } from "@mw/domains/sites";\n')).toEqual([expect.stringMatching(/relative path to its index\.ts/)]);
    // A part's index.ts is an entry; the files behind it are not.
    expect(await boundaryErrors("packages/domains/src/ai/example.ts", 'export { levelOf } from "../urgency/engine/levels.ts";\n')).toEqual([expect.stringMatching(/only through its index\.ts.*\.\.\/urgency\/index\.ts/)]);
  });

  it("lets a domain import another domain's index.ts, by import, export ... from or import(), and its own files", async () => {
    const code = 'import { orderExportJob } from "../orders/index.ts";\nexport * from "../disputes/index.ts";\nimport { reportJob } from "./jobs.ts";\nexport const load = () => import("../orders/index.ts");\nexport const jobs = [orderExportJob, reportJob];\n';
    expect(await boundaryErrors("packages/domains/src/reports/example.ts", code)).toEqual([]);
    expect(await boundaryErrors("packages/domains/src/inventory/product-webhooks/example.ts", 'export { receiveProductWebhook } from "./receiver.ts";\nexport * from "../jobs.ts";\nexport * from "../../sites/index.ts";\n')).toEqual([]);
    expect(await boundaryErrors("packages/domains/src/ai/example.ts", 'export { levelOf } from "../urgency/engine/index.ts";\n')).toEqual([]);
  });

  it("fails lint when a domain's index.ts re-exports a whole file, and lets it list names", async () => {
    expect(await boundaryErrors("packages/domains/src/orders/index.ts", 'export * from "./store.ts";\n')).toEqual([expect.stringMatching(/exports by name/)]);
    expect(await boundaryErrors("packages/domains/src/orders/index.ts", 'export * as store from "./store.ts";\n')).toEqual([expect.stringMatching(/exports by name/)]);
    expect(await boundaryErrors("packages/domains/src/orders/index.ts", 'export { findOrder, type OrderRow } from "./store.ts";\n')).toEqual([]);
    // Only the domain's entry: a part's own index.ts and the domain's other files may still gather with `export *`.
    expect(await boundaryErrors("packages/domains/src/urgency/engine/index.ts", 'export * from "./levels.ts";\n')).toEqual([]);
  });

  it("fails lint when a job or a route imports a provider client, even for a type, and lets the rest of the adapters do so", async () => {
    const job = await boundaryErrors("packages/worker/src/jobs/notifications/example.ts", 'import { postChatMessage } from "@mw/providers/chat";\nexport const post = postChatMessage;\n');
    const route = await boundaryErrors("packages/api/src/routes/tools/storefront_a/example.ts", 'import type { StorefrontAProduct } from "@mw/providers/storefront-a";\nexport type P = StorefrontAProduct;\n');
    const dynamic = await boundaryErrors("packages/api/src/routes/sites/example.ts", 'export const load = () => import("@mw/providers/erp");\n');
    for (const messages of [job, route, dynamic]) expect(messages).toEqual([expect.stringMatching(/call a domain use case/)]);
    // The row-type rule still holds there.
    expect(await boundaryErrors("packages/worker/src/jobs/sites/example.ts", 'import type { Site } from "@mw/platform/prisma";\nexport type S = Site;\n')).toEqual([expect.stringMatching(/row type from its domain/)]);
    expect(await boundaryErrors("packages/worker/src/runtime/example.ts", 'import { postChatMessage } from "@mw/providers/chat";\nexport const post = postChatMessage;\n')).toEqual([]);
  });

  it("outside packages/domains, reaches a domain only through @mw/domains/<domain>, the platform through @mw/platform", async () => {
    expect(resolveFromApi(["@mw/domains/orders", "@mw/domains/orders/store", "@mw/domains/orders/store.ts", "@mw/domains", "@mw/platform", "@mw/providers/erp", "@mw/providers/erp/client.ts"])).toEqual({
      "@mw/domains/orders": "packages/domains/src/orders/index.ts",
      "@mw/domains/orders/store": "ERR_MODULE_NOT_FOUND",
      "@mw/domains/orders/store.ts": "ERR_MODULE_NOT_FOUND",
      "@mw/domains": "ERR_PACKAGE_PATH_NOT_EXPORTED",
      "@mw/platform": "packages/platform/src/index.ts",
      "@mw/providers/erp": "packages/providers/src/erp/index.ts",
      "@mw/providers/erp/client.ts": "ERR_MODULE_NOT_FOUND",
      "import()": "ERR_MODULE_NOT_FOUND",
    });
    // The Prisma client's row types come from their domain.
    expect(await boundaryErrors("packages/api/src/routes/sites/example.ts", 'import type { Site } from "@mw/platform/prisma";\nexport type S = Site;\n')).toEqual([expect.stringMatching(/row type from its domain/)]);
  });
});
