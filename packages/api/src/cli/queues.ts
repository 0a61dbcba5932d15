import { adoptPrefix } from "@mw/platform/connections";
import { errors } from "@mw/platform/core";
import type { Command } from "./command.ts";

export const queueCommands: Record<string, Command> = {
  "queues:adopt": {
    queues: true,
    options: { yes: { type: "boolean", description: "make the change (without it, nothing changes)" } },
    async run(deps, values) {
      // It changes the prefix's owner, so it reads the key directly and never waits for the check that refuses it.
      const adoption = await adoptPrefix(deps.queues.connection, deps.config, values.yes === true);
      const { prefix, from, to } = adoption;
      if (!adoption.changed) return { ...adoption, message: `QUEUE_PREFIX "${prefix}" already belongs to the database ${to.database}: nothing changed.` };
      const held = from ? `the database ${from.database}` : "no database";
      const effect = `its waiting, delayed and failed jobs run against ${to.database}${from ? `, and processes on ${from.database} refuse to start` : ""}`;
      if (values.yes !== true) throw errors.invalidInput(`QUEUE_PREFIX "${prefix}" belongs to ${held}; moving it to the database ${to.database} means ${effect}. Run again with --yes to move it.`);
      return { ...adoption, message: `QUEUE_PREFIX "${prefix}" moved from ${held} to the database ${to.database}: ${effect}.` };
    },
  },
};
