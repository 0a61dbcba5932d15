import { isOptionName, openOptionStore, OPTIONS } from "@mw/domains/options";
import type { Command } from "./command.ts";

/** A value as typed on the command line: JSON when it parses (60, true, null), else the text itself. */
function parseValue(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export const optionCommands: Record<string, Command> = {
  "options:set": {
    arguments: [
      { name: "NAME", description: `one of ${Object.keys(OPTIONS).join(", ")}` },
      { name: "VALUE", description: "parsed as JSON when it parses, else taken as text" },
    ],
    options: {},
    async run(deps, _values, [name, value]) {
      await openOptionStore(deps).set({ [name!]: parseValue(value!) });
      return { name, set: true };
    },
  },
  "options:get": {
    arguments: [{ name: "NAME", description: "the option's name" }],
    options: {},
    async run(deps, _values, [name]) {
      if (!isOptionName(name!)) throw new Error(`Unknown option: ${name}.`);
      const value = await openOptionStore(deps).get(name);
      return "secret" in OPTIONS[name] ? { name, set: value !== null } : { name, value };
    },
  },
};
