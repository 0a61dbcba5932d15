import path from "node:path";
import { fileURLToPath } from "node:url";
import js from "@eslint/js";
import regexp from "eslint-plugin-regexp";
import tseslint from "typescript-eslint";
import noRescanningSearch from "./scripts/eslint/no-rescanning-search.js";

const ROOT = path.dirname(fileURLToPath(import.meta.url));
const SHARED_SRC = path.join(ROOT, "packages/domains/src");

/** Calls `check(node, specifier)` for each static import, `export ... from`, `import()` and `import("...")` type with a literal source. */
function eachSpecifier(check) {
  const visit = (node) => {
    const source = node.source;
    if (source?.type === "Literal" && typeof source.value === "string") check(source, source.value);
    else if (source?.type === "TemplateLiteral" && source.expressions.length === 0) check(source, source.quasis[0].value.cooked);
  };
  return { ImportDeclaration: visit, ExportNamedDeclaration: visit, ExportAllDeclaration: visit, ImportExpression: visit, TSImportType: visit };
}

const PRISMA_TYPES = { name: "@mw/platform/prisma", message: "Take a row type from its domain (@mw/domains/<domain>), Prisma and PrismaClient from @mw/platform (docs/architecture.md)." };

const PROVIDERS_FROM_DOMAINS = 'Jobs and routes call a domain use case, which calls the outside system (docs/architecture.md, "Code that calls outside systems").';

const isRelative = (specifier) => specifier.startsWith("./") || specifier.startsWith("../");
const inside = (file, dir) => !path.relative(dir, file).startsWith("..");

// The dependency rule (docs/architecture.md), checked by two local rules.
const boundaries = {
  rules: {
    // packages/platform and packages/providers: relative imports stay in the package's src/, and of the
    // @mw packages only those in `allow` (options[0].allow), or one of their sub-entries, may be named. package.json says the same, but
    // the root's devDependencies would still let Node and tsc resolve a domain.
    layer: {
      meta: { type: "problem", schema: [{ type: "object", properties: { allow: { type: "array", items: { type: "string" } } }, additionalProperties: false }] },
      create(context) {
        const allow = context.options[0]?.allow ?? [];
        const src = path.join(ROOT, path.relative(ROOT, context.filename).split(path.sep).slice(0, 3).join(path.sep));
        return eachSpecifier((node, specifier) => {
          const allowed = allow.some((name) => specifier === name || specifier.startsWith(`${name}/`));
          const ok = isRelative(specifier) ? inside(path.resolve(path.dirname(context.filename), specifier), src) : !specifier.startsWith("@mw/") || allowed;
          if (!ok) context.report({ node, message: `Platform code and provider clients never import a domain (docs/architecture.md): only their own package's files${allow.length ? ` and ${allow.join(", ")}` : ""}.` });
        });
      },
    },
    // packages/domains/src/<domain>/: another domain only through its index.ts, or the index.ts of one of its
    // self-contained parts (urgency/engine/: the AI service scores with it, and urgency's index.ts imports the
    // AI service, so going through that index would close a circle); other packages by name.
    "domain-entry": {
      meta: { type: "problem", schema: [] },
      create(context) {
        const [domain] = path.relative(SHARED_SRC, context.filename).split(path.sep);
        return eachSpecifier((node, specifier) => {
          // By package name a domain's import would pass unseen by this rule and by the circle test.
          if (specifier.startsWith("@mw/domains")) {
            context.report({ node, message: "Inside the domains another domain is imported by a relative path to its index.ts (../<domain>/index.ts), not by @mw/domains." });
            return;
          }
          if (!isRelative(specifier)) return;
          const target = path.resolve(path.dirname(context.filename), specifier);
          if (!inside(target, SHARED_SRC)) {
            context.report({ node, message: "Another package is imported by its name (@mw/platform, @mw/providers/<system>), not by a relative path." });
            return;
          }
          const [other, ...rest] = path.relative(SHARED_SRC, target).split(path.sep);
          const entry = rest.join("/") === "index.ts" || (rest.length === 2 && rest[1] === "index.ts");
          if (other !== domain && rest.length > 0 && !entry) {
            const index = path.relative(path.dirname(context.filename), path.join(SHARED_SRC, other, "index.ts")).split(path.sep).join("/");
            context.report({ node, message: `Another domain is reached only through its index.ts (docs/architecture.md): ${index}, not ${specifier}.` });
          }
        });
      },
    },
  },
};

export default tseslint.config(
  { ignores: ["**/node_modules/**", "**/generated/**", "**/dist/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { mw: boundaries },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "no-console": ["error", { allow: ["error"] }],
    },
  },
  // The dependency rule (docs/architecture.md): platform code never imports a domain nor a provider,
  // provider clients import only the platform, and a domain reaches another domain through its index.ts.
  { files: ["packages/platform/src/**/*.ts"], rules: { "mw/layer": ["error", { allow: [] }] } },
  { files: ["packages/providers/src/**/*.ts"], rules: { "mw/layer": ["error", { allow: ["@mw/platform"] }] } },
  { files: ["packages/domains/src/**/*.ts"], rules: { "mw/domain-entry": "error" } },
  // A domain's index.ts lists by name what other domains and the adapters may use; the rest of its files stay private.
  {
    files: ["packages/domains/src/*/index.ts"],
    rules: { "no-restricted-syntax": ["error", { selector: "ExportAllDeclaration", message: "A domain's index.ts exports by name what other domains and the adapters use (docs/architecture.md), not `export *`." }] },
  },
  // Outside the domains, a row type comes from its domain (@mw/domains/<domain>), not from the Prisma client.
  {
    files: ["packages/api/**", "packages/worker/**", "scripts/**", "test/**", "bench/**", "integrations/*/test/**"],
    rules: { "no-restricted-imports": ["error", { paths: [PRISMA_TYPES] }] },
  },
  // Code that calls outside systems is called by domains (docs/architecture.md): a job or a route is one call
  // into a domain and never names a provider client, not even for a type.
  {
    files: ["packages/worker/src/jobs/**", "packages/api/src/routes/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [PRISMA_TYPES],
          patterns: [{ regex: "^@mw/providers(/|$)", message: PROVIDERS_FROM_DOMAINS }],
        },
      ],
      "no-restricted-syntax": ["error", { selector: "ImportExpression[source.value=/^@mw\\/providers(\\/|$)/]", message: PROVIDERS_FROM_DOMAINS }],
    },
  },
  // Regexes in the packages run on request, customer and upstream text: none may backtrack
  // super-linearly (docs/security.md, "Text handling: linear time").
  {
    files: ["packages/*/src/**/*.ts"],
    plugins: { regexp, linear: { rules: { "no-rescanning-search": noRescanningSearch } } },
    rules: {
      "regexp/no-super-linear-backtracking": ["error", { report: "potential" }],
      // A sticky (/y) regex is tried at one position only, so it cannot move across the input.
      "regexp/no-super-linear-move": ["error", { report: "potential", ignorePartial: false, ignoreSticky: true }],
      // What no-super-linear-move misses: `<div[^>]+…` rescans from every `<div`.
      "linear/no-rescanning-search": "error",
    },
  },
  {
    files: ["scripts/**", "bench/**", "packages/api/src/cli/**", "test/**", "integrations/*/test/**"],
    rules: { "no-console": "off" },
  },
);
