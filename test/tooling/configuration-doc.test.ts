import { readFileSync } from "node:fs";
import { configSchema } from "@mw/platform";
import { describe, expect, it } from "vitest";
import { ROOT } from "../support/processes.ts";

// docs/configuration.md is the reference of every setting, and .env.example the file people copy:
// a setting added to the schema without either is a setting nobody can find.
const settings = Object.keys(configSchema.shape);
const documented = (file: string, pattern: (name: string) => RegExp) => {
  const text = readFileSync(`${ROOT}/${file}`, "utf8");
  return settings.filter((name) => !pattern(name).test(text));
};

describe("the configuration reference", () => {
  it("lists every setting of config.ts in docs/configuration.md and .env.example", () => {
    expect(documented("docs/configuration.md", (name) => new RegExp(`^\\| \`${name}\` \\|`, "m"))).toEqual([]);
    expect(documented(".env.example", (name) => new RegExp(`^${name}=`, "m"))).toEqual([]);
  });
});
