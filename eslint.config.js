import js from "@eslint/js";
import regexp from "eslint-plugin-regexp";
import tseslint from "typescript-eslint";
import noRescanningSearch from "./scripts/eslint/no-rescanning-search.js";

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
