import js from "@eslint/js";
import tseslint from "typescript-eslint";

/** Files in `files` may leave their folder (by `up`) only for platform/ or generated/, and import no @mw package. */
function layerRule(files, up) {
  const escaped = up.replace(/[./]/g, (c) => `\\${c}`);
  return [
    {
      files,
      rules: {
        "no-restricted-imports": [
          "error",
          {
            patterns: [
              { regex: `^${escaped}(?!platform/|generated/)`, message: "Platform code and provider clients never import a domain (docs/architecture.md)." },
              { regex: "^@mw/", message: "Platform code and provider clients never import a domain (docs/architecture.md)." },
            ],
          },
        ],
      },
    },
  ];
}

export default tseslint.config(
  { ignores: ["**/node_modules/**", "**/generated/**", "**/dist/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "no-console": ["error", { allow: ["error"] }],
    },
  },
  // The dependency rule (docs/architecture.md): platform code and provider clients never import a
  // domain. Within packages/shared only platform/ and the generated Prisma client may be reached.
  ...layerRule(["packages/shared/src/platform/*.ts"], "../"),
  ...layerRule(["packages/shared/src/platform/*/*.ts", "packages/shared/src/providers/*/*.ts"], "../../"),
  {
    files: ["scripts/**", "bench/**", "packages/api/src/cli/**", "test/**", "integrations/*/test/**"],
    rules: { "no-console": "off" },
  },
);
