// `pnpm cli <command> [--options]`: operator bootstrap commands. Each prints one line of JSON.
import { parseArgs } from "node:util";
import { AppError, getConfigOrExit, openCliConnections } from "@mw/platform";
import type { Command } from "./command.ts";
import { licenseCommands } from "./managed-sites.ts";
import { disputeCommands, merchantCommands } from "./disputes.ts";
import { imageKeyCommands } from "./images.ts";
import { itemCommands } from "./inventory.ts";
import { knowledgeCommands } from "./knowledge.ts";
import { optionCommands } from "./options.ts";
import { orderCommands } from "./orders.ts";
import { reviewCommands } from "./reviews.ts";
import { staffCommands, ticketCommands } from "./tickets.ts";
import { timeCommands } from "./timetracking.ts";
import { ticketBridgeCommands, userCommands } from "./identity.ts";

const COMMANDS: Record<string, Command> = { ...userCommands, ...ticketBridgeCommands, ...itemCommands, ...merchantCommands, ...imageKeyCommands, ...reviewCommands, ...optionCommands, ...ticketCommands, ...staffCommands, ...timeCommands, ...licenseCommands, ...knowledgeCommands, ...orderCommands, ...disputeCommands };

const argumentName = (argument: NonNullable<Command["arguments"]>[number]) => `${argument.name}${argument.variadic ? "..." : ""}`;

/** Whether the positionals fit: one each, or at least one each with a variadic last argument. */
function argumentsFit(expected: NonNullable<Command["arguments"]>, given: number): boolean {
  return expected.at(-1)?.variadic ? given >= expected.length : given === expected.length;
}

function usage(): string {
  const lines = ["usage: pnpm cli <command> [options]", ""];
  for (const [name, command] of Object.entries(COMMANDS)) {
    const positional = command.arguments ?? [];
    lines.push(`  ${[name, ...positional.map(argumentName)].join(" ")}  ${command.summary}`);
    for (const argument of positional) lines.push(`      ${argumentName(argument)}  ${argument.description} (required)`);
    for (const [option, spec] of Object.entries(command.options)) {
      lines.push(`      --${option}${spec.type === "string" ? " VALUE" : ""}  ${spec.description}${spec.required ? " (required)" : ""}`);
    }
  }
  return lines.join("\n");
}

async function main(): Promise<number> {
  const [name, ...rest] = process.argv.slice(2);
  const command = name ? COMMANDS[name] : undefined;
  if (!command) {
    console.error(name && name !== "--help" ? `unknown command "${name}"\n\n${usage()}` : usage());
    return name === "--help" ? 0 : 64;
  }
  let values: Record<string, string | boolean | undefined>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: rest,
      options: Object.fromEntries(Object.entries(command.options).map(([key, spec]) => [key, { type: spec.type }])),
      allowPositionals: Boolean(command.arguments?.length),
      strict: true,
    }));
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${usage()}`);
    return 64;
  }
  const missing = Object.entries(command.options).filter(([key, spec]) => spec.required && values[key] === undefined);
  const expected = command.arguments ?? [];
  if (!argumentsFit(expected, positionals.length)) {
    console.error(`${name} takes ${expected.length ? expected.map(argumentName).join(" ") : "no arguments"}\n\n${usage()}`);
    return 64;
  }
  if (missing.length) {
    console.error(`missing --${missing.map(([key]) => key).join(", --")}\n\n${usage()}`);
    return 64;
  }
  const connections = await openCliConnections(getConfigOrExit("cli"));
  try {
    console.log(JSON.stringify(await command.run(connections, values, positionals)));
    return 0;
  } catch (error) {
    const message = error instanceof AppError || error instanceof Error ? error.message : String(error);
    console.error(JSON.stringify({ error: message }));
    return 1;
  } finally {
    await connections.close();
  }
}

process.exitCode = await main();
