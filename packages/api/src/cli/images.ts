import { errors } from "@mw/platform/core";
import { issueImageApiKey, revokeImageApiKey } from "@mw/domains/images";
import type { Command } from "./command.ts";

export const imageKeyCommands: Record<string, Command> = {
  "image-key:create": {
    options: { label: { type: "string", required: true, description: "who or what the key is for" } },
    async run(deps, values) {
      const label = String(values.label).trim();
      if (!label || label.length > 100) throw errors.invalidInput("--label must be 1 to 100 characters");
      return issueImageApiKey(deps, label);
    },
  },
  "image-key:revoke": {
    options: { id: { type: "string", required: true, description: "the key's id (printed by image-key:create)" } },
    async run(deps, values) {
      const id = Number(values.id);
      if (!Number.isInteger(id) || id < 1) throw errors.invalidInput("--id must be a positive integer");
      if (!(await revokeImageApiKey(deps, id))) throw errors.notFound(`no active image-API key with id ${id}`);
      return { id, revoked: true };
    },
  },
};
