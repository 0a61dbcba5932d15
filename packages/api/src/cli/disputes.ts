import { errors } from "@mw/platform/core";
import { createMerchant, disputeByCase, merchantInput } from "@mw/domains/disputes";
import type { Command } from "./command.ts";

export const merchantCommands: Record<string, Command> = {
  "merchant:add": {
    options: {
      mid: { type: "string", required: true, description: "acquirer merchant id (leading zeros are dropped, as the acquirer does)" },
      "security-key": { type: "string", required: true, description: "the gateway security key" },
      name: { type: "string", description: "a name to recognise the account by" },
    },
    async run(deps, values) {
      const parsed = merchantInput.safeParse({ mid: values.mid, security_key: values["security-key"], name: values.name });
      if (!parsed.success) throw errors.invalidInput(parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "));
      const row = await createMerchant(deps, deps.config.ENCRYPTION_KEY, parsed.data);
      return { id: row.id, mid: row.mid, name: row.name };
    },
  },
};

export const disputeCommands: Record<string, Command> = {
  "dispute:show": {
    queues: true,
    arguments: [{ name: "CASE", description: "the acquirer's case id" }],
    options: {},
    async run(deps, _values, [caseId]) {
      const dispute = await disputeByCase(deps, caseId!);
      if (!dispute) throw errors.notFound(`No received dispute has case id ${caseId}.`);
      return dispute;
    },
  },
};
