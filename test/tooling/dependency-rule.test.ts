import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";
import { ROOT } from "../support/processes.ts";

// `pnpm lint` enforces the dependency rule of docs/architecture.md with the project's own ESLint configuration.
const eslint = new ESLint({ cwd: ROOT });

async function restrictedImports(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.filter((message) => message.ruleId === "no-restricted-imports").map((message) => message.message);
}

describe("the dependency rule", () => {
  it("fails lint when platform code imports a domain, by path or by package", async () => {
    const byPath = await restrictedImports("packages/shared/src/platform/example.ts", 'import { disputeJobId } from "../disputes/index.ts";\nexport const id = disputeJobId;\n');
    const byPackage = await restrictedImports("packages/shared/src/platform/queues/example.ts", 'import { trackingSyncJob } from "@mw/shared/tracking";\nexport const job = trackingSyncJob;\n');
    const fromProvider = await restrictedImports("packages/shared/src/providers/erp/example.ts", 'import { orderExportJob } from "../../orders/index.ts";\nexport const job = orderExportJob;\n');
    for (const messages of [byPath, byPackage, fromProvider]) expect(messages).toEqual([expect.stringMatching(/never import a domain/)]);
  });

  it("lets platform code import platform code and the generated client, and domains import the platform", async () => {
    expect(await restrictedImports("packages/shared/src/platform/example.ts", 'import { Prisma } from "../generated/prisma/client.ts";\nimport { AppError } from "./errors.ts";\nexport { AppError, Prisma };\n')).toEqual([]);
    expect(await restrictedImports("packages/shared/src/platform/queues/example.ts", 'import { withTimeout } from "../time.ts";\nexport { withTimeout };\n')).toEqual([]);
    expect(await restrictedImports("packages/shared/src/disputes/example.ts", 'import { jobId } from "../platform/index.ts";\nimport { Site } from "../sites/index.ts";\nexport { jobId, type Site };\n')).toEqual([]);
  });
});
